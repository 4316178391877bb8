/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* SimCommSys system files: the parts a TVB decoder needs, read as SimCommSys reads them.
 *
 * SimCommSys serialises a system as whitespace-separated values, skipping lines that start
 * with '#' (comments), each object behind its class name ("qids<bool,float>", "tvb<bool,...>",
 * "uncoded<double>") and a format version. We find those three objects by their class names
 * and read their fields in the order their version has them (SimCommSys's serialize()
 * functions: qids versions 1-5, tvb 1-12, uncoded 1); fields we do not use are read and
 * checked as numbers. Every message names the file and the line. */
#include <gnuradio/gpufec/core/tvb/tvb.h>

#include "codes/code_file.h"
#include <cmath>
#include <limits>
#include <stdexcept>

namespace gpufec {

namespace {

struct token {
    std::string text;
    int line;
};

class token_reader
{
public:
    token_reader(const std::string& text, const std::string& id) : d_id(id)
    {
        int line = 1;
        size_t at = 0;
        while (at < text.size()) {
            size_t end = text.find('\n', at);
            if (end == std::string::npos)
                end = text.size();
            const size_t first = text.find_first_not_of(" \t\r\v\f", at);
            if (first < end && text[first] != '#') {
                size_t p = first;
                while (p < end) {
                    const size_t e = std::min(end, text.find_first_of(" \t\r\v\f", p));
                    d_tokens.push_back({ text.substr(p, e - p), line });
                    p = e < end ? text.find_first_not_of(" \t\r\v\f", e) : end;
                    if (p == std::string::npos || p > end)
                        p = end;
                }
            }
            ++line;
            at = end + 1;
        }
    }

    //! moves to the token after the first one that starts with `cls` ("tvb<"); false if none
    bool seek_object(const std::string& cls)
    {
        for (size_t i = 0; i < d_tokens.size(); ++i)
            if (d_tokens[i].text.compare(0, cls.size(), cls) == 0) {
                d_at = i + 1;
                d_object = d_tokens[i].text;
                return true;
            }
        return false;
    }

    std::invalid_argument error(const std::string& what) const
    {
        const int line = d_at > 0 && d_at <= d_tokens.size() ? d_tokens[d_at - 1].line : 0;
        return code_file_error("TVB system file", d_id, line, printable(d_object, 60) + ": " + what);
    }

    const std::string& next(const std::string& what)
    {
        if (d_at >= d_tokens.size())
            throw code_file_error("TVB system file", d_id, 0, printable(d_object, 60) + ": the file ends before the " + what);
        return d_tokens[d_at++].text;
    }

    long long integer(const std::string& what, long long lo, long long hi)
    {
        const std::string& s = next(what);
        size_t used = 0;
        long long v = 0;
        try {
            v = std::stoll(s, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used == 0 || used != s.size())
            throw error(what + ": '" + printable(s) + "' is not an integer");
        if (v < lo || v > hi)
            throw error(what + ": " + std::to_string(v) + " is outside " + std::to_string(lo) + " .. " +
                        std::to_string(hi));
        return v;
    }

    double real(const std::string& what, double lo, double hi)
    {
        const std::string& s = next(what);
        size_t used = 0;
        double v = 0;
        try {
            v = std::stod(s, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used == 0 || used != s.size() || !std::isfinite(v))
            throw error(what + ": '" + printable(s) + "' is not a number");
        if (v < lo || v > hi)
            throw error(what + ": " + printable(s) + " is outside " + printable(std::to_string(lo)) + " .. " +
                        printable(std::to_string(hi)));
        return v;
    }

    bool flag(const std::string& what) { return integer(what, 0, 1) != 0; }

    //! n bits, one token each (SimCommSys's vector<bool>), the first sent first: the MSB
    uint32_t word(int n, const std::string& what)
    {
        uint32_t w = 0;
        for (int b = 0; b < n; ++b)
            w = (w << 1) | uint32_t(integer(what + " (bit " + std::to_string(b) + ")", 0, 1));
        return w;
    }

private:
    std::string d_id, d_object;
    std::vector<token> d_tokens;
    size_t d_at = 0;
};

constexpr long long int_max = std::numeric_limits<int>::max();

void read_qids(token_reader& in, tvb_system& sys)
{
    const int version = int(in.integer("version", 1, int_max));
    if (version > 5)
        throw in.error("version " + std::to_string(version) + " is not supported (1 .. 5 are)");
    for (const char* what : { "vary Ps flag", "vary Pd flag", "vary Pi flag" })
        in.flag(what);
    sys.insertion_cap = int(in.integer("cap on insertions", 0, int_max));
    if (version >= 4)
        in.integer("cap on the state space", 0, int_max);
    if (version >= 5) {
        in.flag("transmitter insertion cap flag");
        in.flag("transmitter state-space cap flag");
    }
    in.real("fixed Ps", 0, 1); // (the decoder is told the channel by its options)
    in.real("fixed Pd", 0, 1);
    in.real("fixed Pi", 0, 1);
    if (version >= 2)
        sys.receiver_mode = int(in.integer("receiver mode", 0, 2));
    sys.has_channel = true;
}

void read_tvb(token_reader& in, tvb_system& sys)
{
    const int version = int(in.integer("version", 1, int_max));
    if (version > 12)
        throw in.error("version " + std::to_string(version) + " is not supported (1 .. 12 are)");
    sys.version = version;
    in.real("inner threshold", 0, 1); // (our decoder keeps every value: no thresholds)
    in.real("outer threshold", 0, 1);
    if (version >= 12 && in.integer("trellis pruning states", 0, int_max) != 0)
        throw in.error("trellis pruning (a number of states other than 0) is not supported");
    if (version >= 9)
        sys.exclusion = in.real("probability of a channel event outside the limits", 1e-300, 0.5);
    if (version >= 2 && version <= 9) {
        in.flag("normalisation flag");
        in.flag("batch flag");
    }
    const bool lazy = version >= 2 ? in.flag("lazy flag") : true;
    if (version == 7 && in.flag("channel-symbol priors flag"))
        throw in.error("channel-symbol-level priors are not supported");
    if (version >= 5) {
        if (in.integer("gamma storage mode", 0, 2) == 2)
            in.integer("global storage limit", 0, std::numeric_limits<long long>::max());
    } else if ((version >= 2 && lazy) || version >= 3) {
        in.flag("global storage flag");
    }
    if (version >= 4)
        in.integer("look-ahead", 0, int_max);
    int n = version < 11 ? int(in.integer("n", 1, 24)) : 0;
    int q = 0;
    if (version >= 6) {
        q = int(in.integer("q", 2, 65536));
    } else {
        const int k = int(in.integer("k", 1, 16));
        q = 1 << k;
    }
    auto length_of_book = [&](const char* what) { // version 11 on: each codebook gives n
        if (version < 11)
            return;
        const int nb = int(in.integer(what, 1, 24));
        if (n && nb != n)
            throw in.error("codebooks of different codeword lengths (" + std::to_string(n) + ", " +
                           std::to_string(nb) + ") are not supported");
        n = nb;
    };
    auto check_q = [&] {
        if (uint64_t(q) > (uint64_t(1) << n))
            throw in.error("q = " + std::to_string(q) + " symbols do not fit codewords of n = " + std::to_string(n) +
                           " bits");
    };
    std::vector<std::vector<uint32_t>> tables;
    const long long book_type = in.integer("codebook type", 0, 3);
    if (book_type == 0) {
        length_of_book("n");
        check_q();
        tables.push_back(tvb_sparse_codebook(q, n));
    } else if (book_type == 2) {
        in.next("codebook name");
        const long long count = in.integer("codebook count", 1, 1 << 20);
        for (long long t = 0; t < count; ++t) {
            length_of_book("codeword length");
            check_q();
            std::vector<uint32_t> table;
            for (int D = 0; D < q; ++D)
                table.push_back(in.word(n, "codebook " + std::to_string(t) + " entry " + std::to_string(D)));
            tables.push_back(std::move(table));
        }
    } else {
        throw in.error("codebook type " + std::to_string(book_type) +
                       " is not supported (0 = sparse, 2 = user, in sequence; random orders and random "
                       "codebooks come from SimCommSys's own generator)");
    }
    const long long marker_type = in.integer("marker type", 0, 3);
    std::vector<uint32_t> markers;
    if (marker_type == 0) {
        markers.push_back(0);
    } else if (marker_type == 2) {
        if (tables.size() != 1)
            throw in.error("user marker vectors need exactly one codebook");
        const long long count = in.integer("marker count", 1, 1 << 20);
        for (long long t = 0; t < count; ++t)
            markers.push_back(in.word(n, "marker vector " + std::to_string(t)));
    } else {
        throw in.error("marker type " + std::to_string(marker_type) +
                       " is not supported (0 = zero, 2 = user, in sequence)");
    }
    // codebook i = table (i mod tables) xor marker (i mod markers): one of them is 1 long
    const size_t period = std::max(tables.size(), markers.size());
    sys.code = tvb_code{};
    sys.code.q = q;
    sys.code.n = n;
    for (size_t i = 0; i < period; ++i) {
        std::vector<uint32_t> book = tables[i % tables.size()];
        for (auto& x : book)
            x ^= markers[i % markers.size()];
        sys.code.books.push_back(std::move(book));
    }
    try {
        sys.code.check();
    } catch (const std::invalid_argument& e) {
        throw in.error(e.what());
    }
}

void read_uncoded(token_reader& in, tvb_system& sys)
{
    in.integer("version", 1, 1);
    const long long q = in.integer("alphabet size", 2, 65536);
    sys.N = size_t(in.integer("block length", 1, tvb_max_block_length));
    if (q != sys.code.q)
        throw in.error("alphabet size " + std::to_string(q) + " is not the modem's q = " + std::to_string(sys.code.q));
}

} // namespace

double tvb_split_exclusion(double exclusion, size_t parts)
{
    // SimCommSys's rule: each of `parts` independent events may fail with p so that all of them
    // succeed with probability 1 - exclusion: 1 - (1 - exclusion)^(1 / parts)
    return parts <= 1 ? exclusion : -std::expm1(std::log1p(-exclusion) / double(parts));
}

tvb_system tvb_from_simcommsys(const std::string& text, const std::string& id)
{
    tvb_system sys;
    token_reader in(text, id);
    if (!in.seek_object("tvb<"))
        throw code_file_error("TVB system file", id, 0, "no 'tvb<...>' modem object");
    read_tvb(in, sys);
    if (in.seek_object("qids<"))
        read_qids(in, sys);
    if (in.seek_object("uncoded<"))
        read_uncoded(in, sys);
    return sys;
}

tvb_system tvb_load_simcommsys(const std::string& path)
{
    return tvb_from_simcommsys(read_code_file(path, "file", size_t(16) << 20), path);
}

} // namespace gpufec
