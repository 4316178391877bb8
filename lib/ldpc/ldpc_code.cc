/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/ldpc/ldpc_code.h>

#include "gf2_systematic.h"
#include "ldpc/qc_encoder.h"
#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace gpufec {

namespace {

std::invalid_argument code_error(const std::string& id, const std::string& what)
{
    return std::invalid_argument("LDPC code '" + id + "': " + what);
}

// a code of more edges than this is refused before it is expanded (memory in the gigabytes)
constexpr long long max_edges = 1LL << 25;

double& elimination_limit_ref()
{
    static double limit = [] {
        const char* env = std::getenv("GPUFEC_LDPC_MAX_ELIMINATION");
        char* end = nullptr;
        const double v = env ? std::strtod(env, &end) : 0.0;
        return env && end != env && v > 0 ? v : double(1LL << 36);
    }();
    return limit;
}

} // namespace

void ldpc_code::set_elimination_limit(double word_operations)
{
    if (!(word_operations > 0))
        throw std::invalid_argument("elimination limit: must be positive");
    elimination_limit_ref() = word_operations;
}

double ldpc_code::elimination_limit() { return elimination_limit_ref(); }

ldpc_code ldpc_code::from_base_matrix(int z,
                                      int mb,
                                      int nb,
                                      const std::vector<int>& shifts,
                                      const std::string& id)
{
    if (shifts.size() != size_t(std::max(mb, 0)) * size_t(std::max(nb, 0)))
        throw code_error(id, "base matrix has " + std::to_string(shifts.size()) +
                                 " entries, expected " + std::to_string(mb * nb));
    std::vector<qc_circulant> circ;
    for (size_t i = 0; i < shifts.size(); ++i) {
        if (shifts[i] < -1 || shifts[i] >= z)
            throw code_error(id, "shift " + std::to_string(shifts[i]) + " at row " +
                                     std::to_string(i / nb) + ", column " +
                                     std::to_string(i % nb) + " is not in -1..Z-1 (Z=" +
                                     std::to_string(z) + ")");
        if (shifts[i] >= 0)
            circ.push_back({ int(i / nb), int(i % nb), shifts[i], -1 });
    }
    return from_circulants(z, mb, nb, std::move(circ), id);
}

ldpc_code ldpc_code::from_circulants(int z, int mb, int nb, std::vector<qc_circulant> circ,
                                     const std::string& id)
{
    if (z < 1 || z > 65536)
        throw code_error(id, "lifting size Z=" + std::to_string(z) + " is not in 1..65536");
    if (mb < 1 || nb <= mb || nb > 1024)
        throw code_error(id, "base matrix of " + std::to_string(mb) + " x " + std::to_string(nb) +
                                 " is not valid (needs 1 <= rows < columns <= 1024)");
    for (const auto& c : circ)
        if (c.row < 0 || c.row >= mb || c.col < 0 || c.col >= nb || c.shift < 0 || c.shift >= z ||
            c.missing < -1 || c.missing >= z)
            throw code_error(id, "circulant at block (" + std::to_string(c.row) + ", " + std::to_string(c.col) +
                                     ") shift " + std::to_string(c.shift) + " is outside the " + std::to_string(mb) +
                                     " x " + std::to_string(nb) + " blocks of Z=" + std::to_string(z));
    std::sort(circ.begin(), circ.end(), [](const qc_circulant& a, const qc_circulant& b) {
        return a.row != b.row ? a.row < b.row : a.col != b.col ? a.col < b.col : a.shift < b.shift;
    });
    for (size_t i = 1; i < circ.size(); ++i)
        if (circ[i].row == circ[i - 1].row && circ[i].col == circ[i - 1].col && circ[i].shift == circ[i - 1].shift)
            throw code_error(id, "block (" + std::to_string(circ[i].row) + ", " + std::to_string(circ[i].col) +
                                     ") holds the shift " + std::to_string(circ[i].shift) + " twice");
    if ((long long)circ.size() * z > max_edges)
        throw code_error(id, std::to_string(circ.size()) + " circulants lifted by Z=" + std::to_string(z) +
                                 " make " + std::to_string((long long)circ.size() * z) +
                                 " edges; codes of more than " + std::to_string(max_edges) + " edges are refused");
    // the schedule, block row by block row: the smallest divisor p of z whose sub-layers (rows
    // c, c + p, ...) touch distinct bits and number at most 512 rows. Two circulants of one
    // block, shifts s1 < s2, put rows r and r + (s2 - s1) on one bit (mod z): p must not
    // divide s2 - s1.
    std::vector<std::vector<int>> gaps(static_cast<size_t>(mb));
    for (size_t i = 0; i < circ.size(); ++i)
        for (size_t j = i + 1; j < circ.size() && circ[j].row == circ[i].row && circ[j].col == circ[i].col; ++j)
            gaps[size_t(circ[i].row)].push_back(circ[j].shift - circ[i].shift);
    ldpc_code c;
    c.d_id = id;
    c.d_z = z;
    c.d_mb = mb;
    c.d_nb = nb;
    bool plain = true; // one circulant per block and none missing: the plain base matrix too
    for (int br = 0; br < mb; ++br) {
        int p = 1;
        for (;; ++p) {
            if (z % p || z / p > 512)
                continue;
            bool clash = false;
            for (int g : gaps[size_t(br)])
                clash |= g % p == 0;
            if (!clash)
                break;
        }
        c.d_row_stride.push_back(p);
        plain &= gaps[size_t(br)].empty();
    }
    c.d_n = nb * z;
    c.d_m = mb * z;
    for (const auto& x : circ)
        plain &= x.missing < 0;
    if (plain) {
        c.d_shifts.assign(size_t(mb) * nb, -1);
        for (const auto& x : circ)
            c.d_shifts[size_t(x.row) * nb + x.col] = x.shift;
    }
    c.d_row_start.assign(1, 0);
    size_t first = 0;
    for (int br = 0; br < mb; ++br) {
        size_t last = first;
        while (last < circ.size() && circ[last].row == br)
            ++last;
        const int p = c.d_row_stride[size_t(br)];
        for (int sub = 0; sub < p; ++sub)
            for (int r = sub; r < z; r += p) {
                for (size_t i = first; i < last; ++i)
                    if (circ[i].missing != r)
                        c.d_row_cols.push_back(circ[i].col * z + (r + circ[i].shift) % z);
                c.d_row_start.push_back(static_cast<int>(c.d_row_cols.size()));
            }
        first = last;
    }
    c.d_circulants = std::move(circ);
    c.finish();
    return c;
}

void ldpc_code::set_send_order(std::vector<int> order)
{
    std::vector<int> seen(order);
    std::sort(seen.begin(), seen.end());
    for (size_t i = 0; i < seen.size(); ++i)
        if (seen[i] != int(i) || seen.size() != size_t(d_n))
            throw code_error(d_id, "send order: not a permutation of the " + std::to_string(d_n) + " bits");
    d_send_order = std::move(order);
}

void ldpc_code::set_fill_bits(int bits)
{
    if (bits < 0)
        throw code_error(d_id, "fill bits: " + std::to_string(bits) + " is negative");
    d_fill_bits = bits;
}

void ldpc_code::set_generator(std::shared_ptr<const qc_encoder> generator)
{
    const int k = generator ? generator->information_bits() : 0;
    if (k < 1 || k > d_k || !is_qc())
        throw code_error(d_id, "generator: " + std::to_string(k) + " information bits for a code of " +
                                   std::to_string(d_k));
    d_qc = std::move(generator);
    d_form.reset();
    d_k = k;
    d_info_cols.resize(size_t(k));
    for (int c = 0; c < k; ++c)
        d_info_cols[size_t(c)] = c;
}

ldpc_code ldpc_code::from_rows(int n, const std::vector<std::vector<int>>& rows,
                               const std::string& id)
{
    if (n < 2)
        throw code_error(id, "n=" + std::to_string(n) + " is too small");
    if (rows.empty() || rows.size() >= size_t(n))
        throw code_error(id, "needs between 1 and n-1 parity checks, got " +
                                 std::to_string(rows.size()));
    long long edges = 0;
    for (const auto& row : rows)
        edges += (long long)row.size();
    if (edges > max_edges)
        throw code_error(id, std::to_string(edges) + " edges; codes of more than " +
                                 std::to_string(max_edges) + " edges are refused");
    ldpc_code c;
    c.d_id = id;
    c.d_n = n;
    c.d_m = static_cast<int>(rows.size());
    c.d_row_start.assign(1, 0);
    for (const auto& row : rows) {
        for (int col : row)
            c.d_row_cols.push_back(col);
        c.d_row_start.push_back(static_cast<int>(c.d_row_cols.size()));
    }
    c.finish();
    return c;
}

void ldpc_code::finish()
{
    for (int r = 0; r < d_m; ++r) {
        const int deg = d_row_start[r + 1] - d_row_start[r];
        if (deg < 2)
            throw code_error(d_id, "check " + std::to_string(r) + " has " + std::to_string(deg) +
                                       " bits; every check needs at least 2");
        std::vector<int> cols(d_row_cols.begin() + d_row_start[r],
                              d_row_cols.begin() + d_row_start[r + 1]);
        std::sort(cols.begin(), cols.end());
        if (cols.front() < 0 || cols.back() >= d_n)
            throw code_error(d_id, "check " + std::to_string(r) + " names a bit outside 0.." +
                                       std::to_string(d_n - 1));
        if (std::adjacent_find(cols.begin(), cols.end()) != cols.end())
            throw code_error(d_id, "check " + std::to_string(r) + " names a bit twice");
    }
    const auto cdeg = column_degrees();
    for (int c = 0; c < d_n; ++c)
        if (cdeg[size_t(c)] == 0)
            throw code_error(d_id, "bit " + std::to_string(c) + " is in no check");

    // the standards' parity part: a dual-diagonal core of c block rows (a weight-3 column
    // (a, .., b, .., a), then a staircase of unshifted identities) and, below it (5G NR), an
    // unshifted identity on the diagonal of each further row with nothing to its right
    d_dual_diagonal = false;
    d_core_rows = 0;
    if (!d_shifts.empty()) {
        const int kb = d_nb - d_mb;
        auto at = [&](int r, int col) { return d_shifts[size_t(r) * d_nb + col]; };
        auto core_fits = [&](int c) {
            int weight = 0;
            for (int r = 0; r < c; ++r)
                weight += at(r, kb) >= 0;
            if (weight != 3 || at(0, kb) < 0 || at(c - 1, kb) < 0 || at(0, kb) != at(c - 1, kb))
                return false;
            for (int i = 0; i + 1 < c; ++i)
                for (int r = 0; r < c; ++r) {
                    const int s = at(r, kb + 1 + i);
                    if ((r == i || r == i + 1) ? s != 0 : s != -1)
                        return false;
                }
            for (int r = 0; r < c; ++r) // the core rows meet no extension column
                for (int col = kb + c; col < d_nb; ++col)
                    if (at(r, col) >= 0)
                        return false;
            for (int r = c; r < d_mb; ++r) { // each extension row: its own identity, lower triangular
                if (at(r, kb + r) != 0)
                    return false;
                for (int col = kb + r + 1; col < d_nb; ++col)
                    if (at(r, col) >= 0)
                        return false;
            }
            return true;
        };
        for (int c = 2; c <= d_mb && !d_dual_diagonal; ++c)
            if (core_fits(c)) {
                d_dual_diagonal = true;
                d_core_rows = c;
            }
    }
    d_info_cols.clear();
    if (d_dual_diagonal) {
        d_k = d_n - d_m;
        for (int c = 0; c < d_k; ++c)
            d_info_cols.push_back(c);
    } else if (gf2_systematic peeled; gf2_peel_systematic(d_n, d_row_start, d_row_cols, peeled)) {
        // a parity part solved one check at a time (DVB-S2): linear time, no elimination
        d_k = d_n - d_m;
        d_info_cols = peeled.info_cols;
        d_form = std::make_shared<const gf2_systematic>(std::move(peeled));
    } else if (auto qc = is_qc() ? qc_encoder::make(*this) : nullptr) {
        // a parity part invertible over the circulants (AR4JA): products of circulants, where
        // dense elimination of the largest codes would take minutes
        d_qc = std::move(qc);
        d_k = d_n - d_m;
        for (int c = 0; c < d_k; ++c)
            d_info_cols.push_back(c);
    } else {
        // dense elimination: m rows of n/64 words, each pivot clearing up to m rows. A small
        // file can describe a code whose elimination takes hours: estimate first, refuse above
        // the limit (the message says how to raise it)
        const double words = double((d_n + 63) / 64);
        const double ops = double(d_m) * double(d_m) * words;
        const double bytes = double(d_m) * words * 8.0;
        if (ops > elimination_limit() || bytes > double(4LL << 30)) {
            std::ostringstream msg;
            msg << "H (" << d_m << " x " << d_n
                << ") has no dual-diagonal parity part, so it needs Gaussian elimination: about "
                << ops << " word operations and " << (bytes / (1 << 20))
                << " MiB, over the limit of " << elimination_limit()
                << " operations (raise it with GPUFEC_LDPC_MAX_ELIMINATION or "
                   "ldpc_code::set_elimination_limit; 4 GiB of memory at most)";
            throw code_error(d_id, msg.str());
        }
        d_form = std::make_shared<const gf2_systematic>(gf2_make_systematic(d_n, d_row_start, d_row_cols));
        d_k = d_n - d_form->rank;
        d_info_cols = d_form->info_cols;
    }
    if (d_k < 1)
        throw code_error(d_id, "H has full column rank: the code has no information bits");
}

int ldpc_code::max_row_degree() const
{
    int d = 0;
    for (int r = 0; r < d_m; ++r)
        d = std::max(d, d_row_start[r + 1] - d_row_start[r]);
    return d;
}

std::vector<int> ldpc_code::row_degrees() const
{
    std::vector<int> d(static_cast<size_t>(d_m));
    for (int r = 0; r < d_m; ++r)
        d[size_t(r)] = d_row_start[r + 1] - d_row_start[r];
    return d;
}

std::vector<int> ldpc_code::column_degrees() const
{
    std::vector<int> d(static_cast<size_t>(d_n), 0);
    for (int col : d_row_cols)
        if (col >= 0 && col < d_n)
            ++d[size_t(col)];
    return d;
}

bool ldpc_code::satisfied(const unsigned char* cw) const
{
    for (int r = 0; r < d_m; ++r) {
        unsigned x = 0;
        for (int e = d_row_start[r]; e < d_row_start[r + 1]; ++e)
            x ^= cw[d_row_cols[e]] & 1u;
        if (x)
            return false;
    }
    return true;
}

std::string ldpc_code::describe() const
{
    std::ostringstream s;
    s << d_id << " (n=" << d_n << ", k=" << d_k;
    if (is_qc())
        s << ", QC Z=" << d_z;
    s << ")";
    return s.str();
}

} // namespace gpufec
