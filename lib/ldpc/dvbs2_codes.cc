/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "ldpc/dvbs2_codes.h"

#include "ldpc/ldpc_standard_text.h"
#include <map>
#include <sstream>
#include <stdexcept>

namespace gpufec {

namespace {

struct dvbs2_table {
    int n = 0, q = 0;
    std::string rate;
    std::vector<std::vector<int>> addresses; // one row per group of 360 information bits
};

//! the compiled-in tables: "[n=<n> rate=<r> q=<q>]" headers, then address rows ('#' comments)
const std::vector<dvbs2_table>& tables()
{
    static const std::vector<dvbs2_table> all = [] {
        std::vector<dvbs2_table> out;
        std::istringstream in(dvbs2_ldpc_tables_text());
        std::string line;
        while (std::getline(in, line)) {
            if (line.empty() || line[0] == '#')
                continue;
            if (line[0] == '[') {
                dvbs2_table t;
                std::istringstream h(line.substr(1, line.find(']') - 1));
                std::string kv;
                while (h >> kv) {
                    const auto eq = kv.find('=');
                    const std::string key = kv.substr(0, eq), value = kv.substr(eq + 1);
                    if (key == "n")
                        t.n = std::stoi(value);
                    else if (key == "q")
                        t.q = std::stoi(value);
                    else if (key == "rate")
                        t.rate = value;
                }
                out.push_back(t);
                continue;
            }
            std::istringstream row(line);
            std::vector<int> a;
            for (int x; row >> x;)
                a.push_back(x);
            out.back().addresses.push_back(a);
        }
        return out;
    }();
    return all;
}

/* Each code's min-sum normalisation where it is not 0.875: the best of 0.75, 0.8125 and 0.875
 * (and 0.6875 / 0.9375 where an end won) in a sweep of the waterfall, LDPC int8 with the BCH, 50
 * iterations (H200; docs/data/ldpc-normalization-h200, picked by scripts/ldpc_normalization_pick.py).
 * Min-sum is sensitive to it on these codes: dvbs2:64800:11/20 at Eb/N0 1.21 dB fails 630 of 1000
 * frames at 0.875 and none at 0.8125; 3/5 wants 0.75, 13/45 and the 1/4 .. 1/3 codes 0.875. */
const std::map<std::string, float>& measured_normalization()
{
    static const std::map<std::string, float> m = {
    { "64800:1/2", 0.8125f },
    { "64800:100/180", 0.8125f },
    { "64800:104/180", 0.75f },
    { "64800:11/20", 0.8125f },
    { "64800:116/180", 0.75f },
    { "64800:124/180", 0.8125f },
    { "64800:128/180", 0.75f },
    { "64800:13/18", 0.8125f },
    { "64800:132/180", 0.8125f },
    { "64800:135/180", 0.8125f },
    { "64800:140/180", 0.75f },
    { "64800:18/30", 0.75f },
    { "64800:2/5", 0.8125f },
    { "64800:20/30", 0.75f },
    { "64800:22/30", 0.8125f },
    { "64800:23/36", 0.8125f },
    { "64800:25/36", 0.75f },
    { "64800:26/45", 0.75f },
    { "64800:28/45", 0.8125f },
    { "64800:3/5", 0.75f },
    { "64800:7/9", 0.8125f },
    { "64800:9/20", 0.8125f },
    { "64800:90/180", 0.8125f },
    { "64800:96/180", 0.8125f },
    { "16200:2/5", 0.8125f },
    { "16200:26/45", 0.75f },
    { "16200:3/5", 0.75f },
    { "16200:4/15", 0.8125f },
    { "16200:7/15", 0.75f },
    { "16200:8/15", 0.75f }
    };
    return m;
}

/* The VL-SNR codes (EN 302 307-2 5.5.2.4, Table 18; the puncturing of 5.3.2.2): sent without
 * Xp of their parity bits, every P-th from p_0, and (1/5 spread, medium 1/5) their first Xs
 * information bits known zeros. The normal 2/9 and the medium (32400) codes have tables of their
 * own; the short ones are short codes of the tables (`table` rate) sent so. Names as
 * gr-dtv's rate constants, which the QA compares every codeword with. */
struct vlsnr_code {
    int n;
    const char* rate;       // the id's rate
    const char* table;      // the table's rate
    int xs, p, xp;          // shortened, puncturing period, punctured
};
const vlsnr_code vlsnr_codes[] = {
    { 64800, "2/9", "2/9", 0, 15, 3240 },           // C2_9_VLSNR
    { 32400, "1/5", "1/5", 640, 25, 980 },          // C1_5_MEDIUM
    { 32400, "11/45", "11/45", 0, 15, 1620 },       // C11_45_MEDIUM
    { 32400, "1/3", "1/3", 0, 13, 1620 },           // C1_3_MEDIUM
    { 16200, "1/5-vlsnr", "1/4", 0, 10, 1224 },     // C1_5_VLSNR (the short "1/4" code, k = 3240)
    { 16200, "1/5-vlsnr-sf2", "1/4", 560, 30, 250 }, // C1_5_VLSNR_SF2
    { 16200, "11/45-vlsnr-sf2", "11/45", 0, 15, 810 }, // C11_45_VLSNR_SF2
    { 16200, "4/15-vlsnr", "4/15", 0, 8, 1224 },    // C4_15_VLSNR
    { 16200, "1/3-vlsnr", "1/3", 0, 8, 1224 },      // C1_3_VLSNR
};

const vlsnr_code* find_vlsnr(int n, const std::string& rate)
{
    for (const auto& v : vlsnr_codes)
        if (v.n == n && rate == v.rate)
            return &v;
    return nullptr;
}

} // namespace

std::vector<std::string> dvbs2_code_ids()
{
    std::vector<std::string> ids;
    for (const auto& t : tables())
        ids.push_back("dvbs2:" + std::to_string(t.n) + ":" + t.rate);
    for (const auto& v : vlsnr_codes)
        if (v.n == 16200) // (the others have tables of their own)
            ids.push_back("dvbs2:" + std::to_string(v.n) + ":" + v.rate);
    return ids;
}

ldpc_code dvbs2_code(int n, const std::string& id_rate, const std::string& id)
{
    const vlsnr_code* vl = find_vlsnr(n, id_rate);
    const std::string rate = vl ? vl->table : id_rate;
    for (const auto& t : tables()) {
        if (t.n != n || t.rate != rate)
            continue;
        /* The quasi-cyclic form (Z = 360): check j = a + b q (a < q, b < 360) becomes row b of
         * block row a, and so does parity bit j in block column kb + a. Information bit w of
         * group g takes part in the checks x + w q (mod m) of its addresses x = a + b q: row
         * (b + w) mod 360 of block row a, a circulant of shift (360 - b) mod 360 in block
         * column g (two addresses of a group may share a block). The accumulator (p_j in checks
         * j and j + 1) becomes identities on the diagonal and below it, and in block (0, kb +
         * q - 1) the identity shifted by 359 whose row 0 is missing (p_(m-1) ends the chain). */
        const int q = t.q, m = 360 * q, k = n - m, kb = k / 360;
        std::vector<qc_circulant> circ;
        for (size_t g = 0; g < t.addresses.size(); ++g)
            for (int x : t.addresses[g])
                circ.push_back({ x % q, int(g), (360 - x / q) % 360, -1 });
        for (int a = 0; a < q; ++a) {
            circ.push_back({ a, kb + a, 0, -1 });
            if (a + 1 < q)
                circ.push_back({ a + 1, kb + a, 0, -1 });
        }
        circ.push_back({ 0, kb + q - 1, 359, 0 });
        ldpc_code code = ldpc_code::from_circulants(360, q, n / 360, std::move(circ), id);
        // sent as the standard sends it: the parity bits p_0 .. p_(m-1) in order
        std::vector<int> order(static_cast<size_t>(n));
        for (int i = 0; i < k; ++i)
            order[size_t(i)] = i;
        for (int j = 0; j < m; ++j)
            order[size_t(k + j)] = k + (j % q) * 360 + j / q;
        code.set_send_order(std::move(order));
        const auto own = measured_normalization().find(std::to_string(n) + ":" + id_rate);
        code.set_default_normalization(own != measured_normalization().end() ? own->second : 0.875f);
        if (vl) { // as sent: positions in the send order, parity p_j at k + j
            code.set_default_puncture(std::to_string(k) + ":" + std::to_string(k + (vl->xp - 1) * vl->p + 1) + ":" +
                                      std::to_string(vl->p));
            if (vl->xs)
                code.set_default_shorten("0:" + std::to_string(vl->xs));
        }
        return code;
    }
    std::string valid;
    for (const auto& t : dvbs2_code_ids())
        if (t.rfind("dvbs2:" + std::to_string(n) + ":", 0) == 0)
            valid += (valid.empty() ? "" : ", ") + t.substr(t.rfind(':') + 1);
    throw std::invalid_argument("LDPC code '" + id + "': DVB-S2 defines FECFRAMEs of n = 64800 and 16200 (and " +
                                "DVB-S2X's VL-SNR 32400)" +
                                (valid.empty() ? std::string() : "; the rates for n = " + std::to_string(n) +
                                                                     " are " + valid));
}

} // namespace gpufec
