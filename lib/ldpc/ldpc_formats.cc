/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Reading and writing LDPC codes: the standards' tables, base-matrix text files and alist
 * files. */
#include <gnuradio/gpufec/core/ldpc/ldpc_code.h>
#include <gnuradio/gpufec/core/ldpc/nr_coding.h>

#include "codes/code_file.h"
#include "ldpc/ccsds_codes.h"
#include "ldpc/dvbs2_codes.h"
#include "ldpc/ldpc_standard_text.h"
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace gpufec {

namespace {

std::invalid_argument format_error(const std::string& id, int line, const std::string& what)
{
    return code_file_error("LDPC code", id, line, what);
}

bool parse_int(const std::string& tok, int& v)
{
    if (tok.empty())
        return false;
    size_t pos = 0;
    try {
        const long x = std::stol(tok, &pos);
        if (pos != tok.size() || x < -1000000000L || x > 1000000000L)
            return false;
        v = static_cast<int>(x);
    } catch (const std::exception&) {
        return false;
    }
    return true;
}

//! "Z = 27" -> "Z=27": spaces around '=' are allowed in headers
std::string join_equals(const std::string& text)
{
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '=') {
            while (!out.empty() && std::isspace(static_cast<unsigned char>(out.back())))
                out.pop_back();
            out += '=';
            while (i + 1 < text.size() && std::isspace(static_cast<unsigned char>(text[i + 1])))
                ++i;
        } else {
            out += text[i];
        }
    }
    return out;
}

//! key=value pairs of a "[n=648 rate=1/2 Z=27]" header
std::map<std::string, std::string> header_keys(const std::string& line)
{
    std::map<std::string, std::string> keys;
    std::istringstream in(join_equals(line.substr(1, line.find(']') - 1)));
    std::string kv;
    while (in >> kv) {
        const auto eq = kv.find('=');
        if (eq != std::string::npos)
            keys[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    return keys;
}

struct section {
    std::map<std::string, std::string> keys;
    std::vector<std::vector<int>> rows;
    int first_line = 0;
};

//! Sections of a base-matrix text: each "[...]" header, or a "Z=<z>" line, starts one; rows of
//! integers follow. '#' starts a comment.
std::vector<section> parse_sections(const std::string& text, const std::string& id)
{
    std::vector<section> out;
    std::istringstream in(text);
    std::string line;
    int lineno = 0;
    while (std::getline(in, line)) {
        ++lineno;
        const auto hash = line.find('#');
        if (hash != std::string::npos)
            line.resize(hash);
        size_t b = 0;
        while (b < line.size() && std::isspace(static_cast<unsigned char>(line[b])))
            ++b;
        line = line.substr(b);
        while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back())))
            line.pop_back();
        if (line.empty())
            continue;
        if (line[0] == '[') {
            if (line.find(']') == std::string::npos)
                throw format_error(id, lineno, "header without ']'");
            out.push_back({ header_keys(line), {}, lineno });
            continue;
        }
        if ((line[0] == 'Z' || line[0] == 'z') && join_equals(line).size() > 1 && join_equals(line)[1] == '=') {
            out.push_back({ header_keys("[" + line + "]"), {}, lineno });
            continue;
        }
        if (out.empty())
            out.push_back({ {}, {}, lineno });
        std::istringstream toks(line);
        std::string tok;
        std::vector<int> row;
        while (toks >> tok) {
            int v;
            if (!parse_int(tok, v))
                throw format_error(id, lineno, "base matrix: '" + printable(tok) + "' is not an integer shift");
            row.push_back(v);
        }
        if (!out.back().rows.empty() && row.size() != out.back().rows.front().size())
            throw format_error(id, lineno,
                               "base matrix: row has " + std::to_string(row.size()) + " entries, the first had " +
                                   std::to_string(out.back().rows.front().size()));
        out.back().rows.push_back(row);
    }
    return out;
}

ldpc_code code_from_section(const section& s, int z, const std::string& id,
                            int (*scale)(int shift, int z))
{
    if (s.rows.empty())
        throw format_error(id, s.first_line, "base matrix: no rows");
    const int mb = static_cast<int>(s.rows.size());
    const int nb = static_cast<int>(s.rows.front().size());
    std::vector<int> shifts;
    for (const auto& r : s.rows)
        for (int v : r)
            shifts.push_back(v < 0 || !scale ? v : scale(v, z));
    return ldpc_code::from_base_matrix(z, mb, nb, shifts, id);
}

int scale_16e_floor(int p, int z) { return p * z / 96; }
int scale_16e_mod(int p, int z) { return p % z; }

const char* const rates_11n[] = { "1/2", "2/3", "3/4", "5/6" };
const int lengths_11n[] = { 648, 1296, 1944 };
const char* const rates_16e[] = { "1/2", "2/3A", "2/3B", "3/4A", "3/4B", "5/6" };

std::invalid_argument unknown_code(const std::string& id)
{
    return std::invalid_argument(
        "code: '" + id +
        "' is not a known LDPC code (allowed: 802.11n:<648|1296|1944>:<1/2|2/3|3/4|5/6>, "
        "802.16e:<576+96i up to 2304>:<1/2|2/3A|2/3B|3/4A|3/4B|5/6>, nr:<bg1|bg2>:<Z> (5G NR, "
        "the 51 lifting sizes Z of TS 38.212), dvbs2:<64800|16200>:<rate> (DVB-S2, the standard's nominal "
        "rates 1/4 .. 9/10, DVB-S2X 13/45 .. 154/180 and its VL-SNR codes: dvbs2:64800:2/9, dvbs2:32400:<1/5|11/45|1/3>, "
        "dvbs2:16200:<1/5-vlsnr|1/5-vlsnr-sf2|11/45-vlsnr-sf2|4/15-vlsnr|1/3-vlsnr>), ccsds:8160:7136 (CCSDS C2 as sent; ccsds:8176:7156 its basic code), "
        "ccsds:128:64 and ccsds:512:256 (CCSDS telecommand), ccsds:<n>:<k> (CCSDS AR4JA, k = 1024, 4096, 16384, "
        "n = 2k, 3k/2, 5k/4), or the path of an alist or "
        "base-matrix file)");
}

int nr_shift(int v, int z) { return v % z; } // V(i,j) mod Z

//! nr:bg<1|2>:<Z>: the mother code of 38.212 (all 68 or 52 block columns, none punctured)
ldpc_code nr_code(const std::string& id, const std::string& graph, const std::string& lift)
{
    int z = 0;
    const int bg = graph == "bg1" || graph == "BG1" ? 1 : graph == "bg2" || graph == "BG2" ? 2 : 0;
    if (bg == 0 || !parse_int(lift, z) || nr_lifting_set(z) < 0)
        throw unknown_code(id);
    const std::string want_bg = std::to_string(bg), want_set = std::to_string(nr_lifting_set(z));
    for (const auto& s : parse_sections(nr_base_graphs_text(), "5G NR tables")) {
        const auto b = s.keys.find("bg"), i = s.keys.find("ils");
        if (b != s.keys.end() && i != s.keys.end() && b->second == want_bg && i->second == want_set)
        {
            ldpc_code c = code_from_section(s, z, "nr:bg" + want_bg + ":" + std::to_string(z), nr_shift);
            c.set_default_puncture("0:" + std::to_string(2 * z)); // 38.212 5.4.2.1
            // min-sum normalisation 0.625: the best of 0.5625 .. 0.875 in a sweep of both graphs
            // at Z = 8 .. 384 (H200, docs/data/ldpc-normalization-h200/nr-ccsds): BG1 Z = 384
            // at Eb/N0 0.5 dB fails 2 of 1000 frames at 0.625, 37 at 0.6875, 608 at 0.75
            c.set_default_normalization(0.625f);
            return c;
        }
    }
    throw unknown_code(id);
}

} // namespace

std::vector<std::string> ldpc_code::standard_ids()
{
    std::vector<std::string> ids;
    for (int n : lengths_11n)
        for (const char* r : rates_11n)
            ids.push_back("802.11n:" + std::to_string(n) + ":" + r);
    for (int i = 0; i <= 18; ++i)
        for (const char* r : rates_16e)
            ids.push_back("802.16e:" + std::to_string(576 + 96 * i) + ":" + r);
    for (int bg = 1; bg <= 2; ++bg)
        for (int z = 2; z <= 384; ++z)
            if (nr_lifting_set(z) >= 0)
                ids.push_back("nr:bg" + std::to_string(bg) + ":" + std::to_string(z));
    for (const auto& id : dvbs2_code_ids())
        ids.push_back(id);
    ids.push_back("ccsds:8176:7156");
    ids.push_back("ccsds:8160:7136");
    ids.push_back("ccsds:128:64");
    ids.push_back("ccsds:512:256");
    for (const auto& id : ccsds_ar4ja_ids())
        ids.push_back(id);
    return ids;
}

ldpc_code ldpc_code::standard(const std::string& id)
{
    const auto c1 = id.find(':'), c2 = id.rfind(':');
    if (c1 == std::string::npos || c2 == c1)
        throw unknown_code(id);
    const std::string family = id.substr(0, c1), len = id.substr(c1 + 1, c2 - c1 - 1);
    if (family == "nr" || family == "NR")
        return nr_code(id, len, id.substr(c2 + 1));
    if (family == "dvbs2") {
        int n = 0;
        if (!parse_int(len, n) || (n != 64800 && n != 16200 && n != 32400))
            throw unknown_code(id);
        const std::string rate = id.substr(c2 + 1);
        return dvbs2_code(n, rate, "dvbs2:" + std::to_string(n) + ":" + rate);
    }
    if (family == "ccsds" && len == "8176" && id.substr(c2 + 1) == "7156")
        return ccsds_c2_code("ccsds:8176:7156");
    if (family == "ccsds") {
        int n = 0, k = 0;
        if (!parse_int(len, n) || !parse_int(id.substr(c2 + 1), k))
            throw unknown_code(id);
        if (n == 8160 && k == 7136)
            return ccsds_c2_transmitted_code("ccsds:8160:7136");
        if (n == 128 || n == 512)
            return ccsds_tc_code(n, k, "ccsds:" + std::to_string(n) + ":" + std::to_string(k));
        return ccsds_ar4ja_code(n, k, "ccsds:" + std::to_string(n) + ":" + std::to_string(k));
    }
    std::string rate = id.substr(c2 + 1);
    for (auto& ch : rate)
        ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    int n = 0;
    if (!parse_int(len, n))
        throw unknown_code(id);
    const std::string canonical = family + ":" + std::to_string(n) + ":" + rate;
    if (family == "802.11n") {
        for (const auto& s : parse_sections(ieee80211n_base_matrices_text(), "802.11n tables")) {
            const auto n_it = s.keys.find("n"), r_it = s.keys.find("rate"), z_it = s.keys.find("Z");
            if (n_it == s.keys.end() || r_it == s.keys.end() || z_it == s.keys.end())
                continue;
            if (n_it->second == std::to_string(n) && r_it->second == rate)
                return code_from_section(s, std::stoi(z_it->second), canonical, nullptr);
        }
    } else if (family == "802.16e" && n >= 576 && n <= 2304 && (n - 576) % 96 == 0) {
        for (const auto& s : parse_sections(ieee80216e_base_matrices_text(), "802.16e tables")) {
            const auto r_it = s.keys.find("rate");
            if (r_it == s.keys.end() || r_it->second != rate)
                continue;
            // the table holds the shifts for z0 = 96; other lengths scale them (the standard's
            // rule: modulo for rate 2/3A, floor(p z / 96) for the others)
            return code_from_section(s, n / 24, canonical,
                                     rate == "2/3A" ? scale_16e_mod : scale_16e_floor);
        }
    }
    throw unknown_code(id);
}

ldpc_code ldpc_code::from_base_matrix_text(const std::string& text, const std::string& id)
{
    const auto sections = parse_sections(text, id);
    if (sections.size() != 1)
        throw format_error(id, 0, sections.empty() ? "base matrix: none found"
                                                   : "base matrix: more than one in one file");
    const auto& s = sections.front();
    const auto z_it = s.keys.count("Z") ? s.keys.find("Z") : s.keys.find("z");
    int z = 0;
    if (z_it == s.keys.end() || !parse_int(z_it->second, z))
        throw format_error(id, s.first_line, "base matrix: no lifting size: add a line \"Z=<size>\"");
    return code_from_section(s, z, id, nullptr);
}

ldpc_code ldpc_code::from_alist(const std::string& text, const std::string& id)
{
    std::istringstream lines(text);
    std::vector<long> v;
    std::vector<int> line_of; // line of each number, for messages
    std::string line, tok;
    int lineno = 0;
    while (std::getline(lines, line)) {
        ++lineno;
        std::istringstream in(line);
        while (in >> tok) {
            int x;
            if (!parse_int(tok, x))
                throw format_error(id, lineno, "alist: '" + printable(tok) + "' is not an integer");
            v.push_back(x);
            line_of.push_back(lineno);
        }
    }
    size_t p = 0;
    auto next = [&](const char* what) {
        if (p >= v.size())
            throw format_error(id, lineno, std::string("alist: file ends before ") + what);
        return static_cast<int>(v[p++]);
    };
    const int n = next("the column count");
    const int m = next("the row count");
    if (n < 2 || n > (1 << 22) || m < 1 || m >= n)
        throw format_error(id, 0, "alist: sizes n=" + std::to_string(n) + ", m=" +
                                      std::to_string(m) + " are not valid (need 1 <= m < n)");
    const int max_c = next("the largest column degree"), max_r = next("the largest row degree");
    if (max_c < 1 || max_c > m || max_r < 2 || max_r > n)
        throw format_error(id, 0, "alist: largest degrees " + std::to_string(max_c) + ", " +
                                      std::to_string(max_r) + " are not valid");
    std::vector<int> cdeg(static_cast<size_t>(n)), rdeg(static_cast<size_t>(m));
    for (auto& d : cdeg)
        d = next("the column degrees");
    for (auto& d : rdeg)
        d = next("the row degrees");
    for (int d : cdeg)
        if (d < 0 || d > max_c)
            throw format_error(id, 0, "alist: a column degree is outside 0.." + std::to_string(max_c));
    for (int d : rdeg)
        if (d < 0 || d > max_r)
            throw format_error(id, 0, "alist: a row degree is outside 0.." + std::to_string(max_r));
    // Column lists, then (optional) row lists. MacKay's format and gr-fec write each list with
    // exactly its degree's entries; AFF3CT and others pad every list with zeros to the largest
    // degree. Which one a file uses follows from how many numbers are left; where two layouts
    // give the same count, from how many numbers the first short list's line holds.
    long edges = 0, row_edges = 0;
    for (int d : cdeg)
        edges += d;
    for (int d : rdeg)
        row_edges += d;
    const long left = long(v.size() - p), padded_cols = long(n) * max_c, padded_rows = long(m) * max_r;
    auto fits = [&](bool pad_c) {
        const long cols = pad_c ? padded_cols : edges;
        return left == cols || left == cols + padded_rows || left == cols + row_edges;
    };
    // (where no layout fits, read as the larger one would be read, to name what is wrong)
    bool pad_cols = fits(true) ? !fits(false) : !fits(false) && left >= padded_cols;
    if (fits(true) && fits(false) && padded_cols != edges) {
        const auto short_col = std::find_if(cdeg.begin(), cdeg.end(), [&](int d) { return d < max_c; });
        size_t start = p; // the short column's first number
        for (auto it = cdeg.begin(); it != short_col; ++it)
            start += size_t(max_c);
        pad_cols = start < v.size() && std::count(line_of.begin(), line_of.end(), line_of[start]) == max_c;
    }
    const long cols_read = pad_cols ? padded_cols : edges;
    const bool have_rows = left > cols_read;
    const bool pad_rows = have_rows && left == cols_read + padded_rows &&
                          (padded_rows != row_edges || pad_cols); // equal counts: as the columns are
    auto read_list = [&](int degree, int pad_to, int limit, const char* what, const std::string& whose,
                         const char* names, std::vector<int>& out) {
        for (int j = 0; j < pad_to; ++j) {
            const int x = next(what);
            if (j < degree) {
                if (x < 1 || x > limit)
                    throw format_error(id, line_of[p - 1], "alist: " + whose + " names " + names + " " + std::to_string(x));
                out.push_back(x - 1);
            } else if (x != 0) {
                throw format_error(id, line_of[p - 1], "alist: " + whose + " lists more " + names +
                                                           "s than its degree");
            }
        }
    };
    std::vector<std::vector<int>> from_cols(static_cast<size_t>(m));
    std::vector<int> list;
    for (int c = 0; c < n; ++c) {
        list.clear();
        const int d = cdeg[size_t(c)];
        read_list(d, pad_cols ? max_c : d, m, "the column lists", "column " + std::to_string(c + 1), "row", list);
        for (int r : list)
            from_cols[size_t(r)].push_back(c);
    }
    std::vector<std::vector<int>> rows(static_cast<size_t>(m));
    for (int r = 0; r < m && have_rows; ++r) {
        const int d = rdeg[size_t(r)];
        read_list(d, pad_rows ? max_r : d, n, "the row lists", "row " + std::to_string(r + 1), "column", rows[size_t(r)]);
    }
    if (p != v.size())
        throw format_error(id, 0, "alist: " + std::to_string(v.size() - p) +
                                      " numbers after the end of the row lists");
    for (int r = 0; r < m; ++r) {
        if (int(from_cols[size_t(r)].size()) != rdeg[size_t(r)])
            throw format_error(id, 0, "alist: row " + std::to_string(r + 1) + " has degree " +
                                          std::to_string(rdeg[size_t(r)]) + " but the column lists put " +
                                          std::to_string(from_cols[size_t(r)].size()) + " ones in it");
        if (have_rows) {
            auto a = rows[size_t(r)], b = from_cols[size_t(r)];
            std::sort(a.begin(), a.end());
            std::sort(b.begin(), b.end());
            if (a != b)
                throw format_error(id, 0, "alist: the row lists and the column lists disagree at row " +
                                              std::to_string(r + 1));
        }
    }
    return from_rows(n, from_cols, id);
}

ldpc_code ldpc_code::named(const std::string& name)
{
    if (name.rfind("802.", 0) == 0 || name.rfind("nr:", 0) == 0 || name.rfind("ccsds:", 0) == 0 ||
        name.rfind("dvbs2:", 0) == 0)
        return standard(name);
    for (const char* fmt : { "alist:", "base-matrix:" })
        if (name.rfind(fmt, 0) == 0)
            return load(name.substr(std::string(fmt).size()), std::string(fmt).substr(0, std::string(fmt).size() - 1));
    if (!std::ifstream(name))
        throw unknown_code(name);
    return load(name);
}

std::string ldpc_code::detect_format(const std::string& text)
{
    // the first line that is not blank or a comment tells: "[...]" or "Z=<z>" starts a base
    // matrix; two integers ("n m") start an alist
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        const auto hash = line.find('#');
        if (hash != std::string::npos)
            line.resize(hash);
        std::istringstream toks(join_equals(line));
        std::vector<std::string> t;
        std::string w;
        while (toks >> w)
            t.push_back(w);
        if (t.empty())
            continue;
        if (t[0][0] == '[' || ((t[0][0] == 'Z' || t[0][0] == 'z') && t[0].size() > 1 && t[0][1] == '='))
            return "base-matrix";
        int a, b;
        if (t.size() == 2 && parse_int(t[0], a) && parse_int(t[1], b))
            return "alist";
        return "";
    }
    return "";
}

ldpc_code ldpc_code::load(const std::string& path, const std::string& format)
{
    if (format != "auto" && format != "alist" && format != "base-matrix")
        throw std::invalid_argument("format: '" + printable(format) +
                                    "' is not valid (allowed: auto, alist, base-matrix)");
    const std::string text = read_code_file(path, "code");
    std::string fmt = format;
    if (fmt == "auto") {
        fmt = detect_format(text);
        if (fmt.empty())
            throw format_error(path, 0,
                               text.find_first_not_of(" \t\r\n") == std::string::npos
                                   ? "the file is empty"
                                   : "cannot tell the format: an alist starts with a line \"n m\", "
                                     "a base matrix with \"Z=<size>\" or a \"[... Z=<size>]\" header "
                                     "(or name it: alist:<path>, base-matrix:<path>)");
    }
    return fmt == "alist" ? from_alist(text, path) : from_base_matrix_text(text, path);
}

std::string ldpc_code::to_alist() const
{
    std::vector<std::vector<int>> cols(static_cast<size_t>(d_n));
    for (int r = 0; r < d_m; ++r)
        for (int e = d_row_start[r]; e < d_row_start[r + 1]; ++e)
            cols[size_t(d_row_cols[e])].push_back(r);
    const auto rdeg = row_degrees(), cdeg = column_degrees();
    const int max_c = *std::max_element(cdeg.begin(), cdeg.end());
    const int max_r = max_row_degree();
    std::ostringstream s;
    s << d_n << " " << d_m << "\n" << max_c << " " << max_r << "\n";
    for (int c = 0; c < d_n; ++c)
        s << cdeg[size_t(c)] << (c + 1 < d_n ? " " : "\n");
    for (int r = 0; r < d_m; ++r)
        s << rdeg[size_t(r)] << (r + 1 < d_m ? " " : "\n");
    for (int c = 0; c < d_n; ++c) {
        for (int j = 0; j < max_c; ++j)
            s << (j < int(cols[size_t(c)].size()) ? cols[size_t(c)][size_t(j)] + 1 : 0)
              << (j + 1 < max_c ? " " : "\n");
    }
    for (int r = 0; r < d_m; ++r) {
        std::vector<int> row(d_row_cols.begin() + d_row_start[r], d_row_cols.begin() + d_row_start[r + 1]);
        std::sort(row.begin(), row.end());
        for (int j = 0; j < max_r; ++j)
            s << (j < int(row.size()) ? row[size_t(j)] + 1 : 0) << (j + 1 < max_r ? " " : "\n");
    }
    return s.str();
}

} // namespace gpufec
