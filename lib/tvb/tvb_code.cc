/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* TVB codebooks: checks, Davey-MacKay watermark codebooks, marker codes, encoding. */
#include <gnuradio/gpufec/core/tvb.h>

#include <algorithm>
#include <random>
#include <stdexcept>

namespace gpufec {

void tvb_code::check() const
{
    if (n < 1 || n > 32)
        throw std::invalid_argument("n: codewords of " + std::to_string(n) + " bits (allowed: 1 .. 32)");
    if (q < 2 || (n < 31 && uint64_t(q) > (uint64_t(1) << n)))
        throw std::invalid_argument("q: " + std::to_string(q) + " symbols do not fit codewords of " +
                                    std::to_string(n) + " bits (2 .. 2^n)");
    if (q > 65536)
        throw std::invalid_argument("q: at most 65536");
    if (books.empty())
        throw std::invalid_argument("a TVB code needs at least one codebook");
    const uint64_t mask = n == 32 ? 0xFFFFFFFFull : (uint64_t(1) << n) - 1;
    for (size_t b = 0; b < books.size(); ++b) {
        if (books[b].size() != size_t(q))
            throw std::invalid_argument("codebook " + std::to_string(b) + " has " + std::to_string(books[b].size()) +
                                        " codewords, not q = " + std::to_string(q));
        std::vector<uint32_t> s = books[b];
        for (uint32_t w : s)
            if (uint64_t(w) & ~mask)
                throw std::invalid_argument("codebook " + std::to_string(b) + ": a codeword is longer than n bits");
        std::sort(s.begin(), s.end());
        if (std::adjacent_find(s.begin(), s.end()) != s.end())
            throw std::invalid_argument("codebook " + std::to_string(b) + " repeats a codeword");
    }
}

std::string tvb_code::describe() const
{
    return "TVB q=" + std::to_string(q) + " n=" + std::to_string(n) + ", " + std::to_string(books.size()) +
           " codebook" + (books.size() == 1 ? "" : "s");
}

std::vector<uint32_t> tvb_sparse_codebook(int q, int n)
{
    if (n < 1 || n > 24)
        throw std::invalid_argument("n: sparse codebooks of 1 .. 24 bits");
    if (q < 2 || uint64_t(q) > (uint64_t(1) << n))
        throw std::invalid_argument("q: " + std::to_string(q) + " symbols do not fit codewords of " +
                                    std::to_string(n) + " bits (2 .. 2^n)");
    std::vector<uint32_t> all(size_t(1) << n);
    for (size_t w = 0; w < all.size(); ++w)
        all[w] = uint32_t(w);
    std::stable_sort(all.begin(), all.end(),
                     [](uint32_t a, uint32_t b) { return __builtin_popcount(a) < __builtin_popcount(b); });
    all.resize(size_t(q));
    return all;
}

tvb_code tvb_code::davey_mackay(int q, int n, int books, uint64_t seed)
{
    if (books < 1)
        throw std::invalid_argument("books: at least one codebook");
    const std::vector<uint32_t> sparse = tvb_sparse_codebook(q, n);
    tvb_code c;
    c.q = q;
    c.n = n;
    std::mt19937_64 rng(seed);
    const uint32_t mask = uint32_t((uint64_t(1) << n) - 1);
    for (int b = 0; b < books; ++b) {
        const uint32_t w = uint32_t(rng()) & mask;
        std::vector<uint32_t> book(static_cast<size_t>(q));
        for (int D = 0; D < q; ++D)
            book[size_t(D)] = sparse[size_t(D)] ^ w;
        c.books.push_back(std::move(book));
    }
    c.check();
    return c;
}

tvb_code tvb_code::marker(int d, const std::string& marker_bits)
{
    if (d < 1 || d > 16)
        throw std::invalid_argument("d: 1 .. 16 data bits a codeword");
    uint32_t mk = 0;
    for (char ch : marker_bits) {
        if (ch != '0' && ch != '1')
            throw std::invalid_argument("marker: '" + marker_bits + "' is not a string of 0 and 1");
        mk = (mk << 1) | uint32_t(ch == '1');
    }
    tvb_code c;
    c.q = 1 << d;
    c.n = d + int(marker_bits.size());
    c.books.assign(1, std::vector<uint32_t>(size_t(c.q)));
    for (int D = 0; D < c.q; ++D)
        c.books[0][size_t(D)] = (uint32_t(D) << marker_bits.size()) | mk;
    c.check();
    return c;
}

void tvb_encode(const tvb_code& code, const uint16_t* symbols, size_t N, uint8_t* bits)
{
    for (size_t i = 0; i < N; ++i) {
        if (symbols[i] >= code.q)
            throw std::invalid_argument("tvb_encode: symbol " + std::to_string(symbols[i]) + " is not below q = " +
                                        std::to_string(code.q));
        const uint32_t w = code.codeword(i, symbols[i]);
        for (int b = 0; b < code.n; ++b)
            bits[i * size_t(code.n) + size_t(b)] = uint8_t((w >> (code.n - 1 - b)) & 1);
    }
}

} // namespace gpufec

namespace gpufec {

namespace {
//! the lines of a system file that are not comments, from `from` on
std::vector<std::string> value_lines(const std::string& text, size_t from)
{
    std::vector<std::string> out;
    size_t at = from;
    while (at < text.size()) {
        size_t end = text.find('\n', at);
        if (end == std::string::npos)
            end = text.size();
        std::string line = text.substr(at, end - at);
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
            line.pop_back();
        if (!line.empty() && line[0] != '#')
            out.push_back(line);
        at = end + 1;
    }
    return out;
}

long to_long(const std::string& s, const std::string& what)
{
    size_t used = 0;
    long v = 0;
    try {
        v = std::stol(s, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || s.find_first_not_of(" \t", used) != std::string::npos)
        throw std::invalid_argument("TVB system file: " + what + ": '" + s + "' is not a number");
    return v;
}

uint32_t to_word(const std::string& s, int n, const std::string& what)
{
    uint32_t w = 0;
    int bits = 0;
    for (char ch : s) {
        if (ch == ' ' || ch == '\t')
            continue;
        if (ch != '0' && ch != '1')
            throw std::invalid_argument("TVB system file: " + what + ": '" + s + "' is not a row of 0 and 1");
        w = (w << 1) | uint32_t(ch == '1');
        ++bits;
    }
    if (bits != n)
        throw std::invalid_argument("TVB system file: " + what + " has " + std::to_string(bits) + " bits, not n = " +
                                    std::to_string(n));
    return w;
}
} // namespace

tvb_system tvb_from_simcommsys(const std::string& text)
{
    tvb_system sys;
    const size_t tvb = text.find("\ntvb<");
    if (tvb == std::string::npos)
        throw std::invalid_argument("TVB system file: no 'tvb<...>' modem section");
    auto v = value_lines(text, tvb + 1);
    size_t k = 1; // v[0] is the "tvb<...>" line
    auto next = [&](const std::string& what) -> const std::string& {
        if (k >= v.size())
            throw std::invalid_argument("TVB system file: it ends before the " + what);
        return v[k++];
    };
    const long version = to_long(next("version"), "version");
    if (version != 7)
        throw std::invalid_argument("TVB system file: tvb version " + std::to_string(version) +
                                    " is not supported (version 7 is)");
    for (const char* what : { "inner threshold", "outer threshold", "normalisation flag", "batch flag", "lazy flag",
                              "channel-symbol priors flag", "gamma storage mode", "lookahead" })
        next(what);
    const int n = int(to_long(next("n"), "n"));
    const int q = int(to_long(next("q"), "q"));
    if (n < 1 || n > 24 || q < 2 || uint64_t(q) > (uint64_t(1) << n))
        throw std::invalid_argument("TVB system file: n = " + std::to_string(n) + ", q = " + std::to_string(q) +
                                    " (supported: n 1 .. 24, q 2 .. 2^n)");
    const long book_type = to_long(next("codebook type"), "codebook type");
    std::vector<std::vector<uint32_t>> tables;
    if (book_type == 0) {
        tables.push_back(tvb_sparse_codebook(q, n));
    } else if (book_type == 2) {
        next("codebook name");
        const long count = to_long(next("codebook count"), "codebook count");
        if (count < 1 || count > 1 << 20)
            throw std::invalid_argument("TVB system file: codebook count " + std::to_string(count));
        for (long t = 0; t < count; ++t) {
            std::vector<uint32_t> table;
            for (int D = 0; D < q; ++D)
                table.push_back(to_word(next("codebook entries"), n, "codebook " + std::to_string(t) + " entry " +
                                                                         std::to_string(D)));
            tables.push_back(std::move(table));
        }
    } else {
        throw std::invalid_argument("TVB system file: codebook type " + std::to_string(book_type) +
                                    " is not supported (0 = sparse, 2 = user, in sequence)");
    }
    const long marker_type = to_long(next("marker type"), "marker type");
    std::vector<uint32_t> markers;
    if (marker_type == 0) {
        markers.push_back(0);
    } else if (marker_type == 2) {
        const long count = to_long(next("marker count"), "marker count");
        if (count < 1 || count > 1 << 20)
            throw std::invalid_argument("TVB system file: marker count " + std::to_string(count));
        for (long t = 0; t < count; ++t)
            markers.push_back(to_word(next("marker vectors"), n, "marker vector " + std::to_string(t)));
    } else {
        throw std::invalid_argument("TVB system file: marker type " + std::to_string(marker_type) +
                                    " is not supported (0 = zero, 2 = user, in sequence)");
    }
    // codebook i = table (i mod tables) xor marker (i mod markers): the period is their lcm
    size_t period = tables.size();
    while (period % markers.size())
        period += tables.size();
    sys.code.q = q;
    sys.code.n = n;
    for (size_t i = 0; i < period; ++i) {
        std::vector<uint32_t> book = tables[i % tables.size()];
        for (auto& x : book)
            x ^= markers[i % markers.size()];
        sys.code.books.push_back(std::move(book));
    }
    sys.code.check();
    // the block length (codec section) and the channel's insertion cap, where given
    const size_t bl = text.find("# Block length");
    if (bl != std::string::npos) {
        const auto rest = value_lines(text, bl);
        if (!rest.empty())
            sys.N = size_t(to_long(rest[0], "block length"));
    }
    const size_t cap = text.find("# Cap on I");
    if (cap != std::string::npos) {
        const auto rest = value_lines(text, cap);
        if (!rest.empty())
            sys.insertion_cap = int(to_long(rest[0], "cap on I"));
    }
    return sys;
}

} // namespace gpufec
