/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* TVB codebooks: checks, Davey-MacKay watermark codebooks, marker codes, encoding. */
#include <gnuradio/gpufec/core/tvb/tvb.h>

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
    // every codebook is held: q words each (the default, a codebook a symbol, grows with N)
    if (uint64_t(books) * uint64_t(q) > tvb_max_codebook_words)
        throw std::invalid_argument("books, q: " + std::to_string(books) + " codebooks of q = " + std::to_string(q) +
                                    " words are more than the " + std::to_string(tvb_max_codebook_words >> 20) +
                                    " Mi words a code may hold; give fewer books");
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
