/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Guard slots and the codeword sync marker around an SCPPM codeword, and their removal. */
#include <gnuradio/gpufec/core/scppm_framing.h>

#include <algorithm>
#include <stdexcept>

namespace gpufec {

const std::vector<uint16_t>& scppm_sync_marker(int M)
{
    static const std::vector<uint16_t> m4 = { 0, 3, 1, 2, 1, 3, 2, 0, 0, 3, 2, 1, 0, 2, 1, 3, 1, 0, 3, 2, 3, 2, 1, 0 };
    static const std::vector<uint16_t> m8 = { 0, 3, 1, 2, 5, 4, 7, 6, 6, 7, 4, 5, 2, 1, 3, 0 };
    static const std::vector<uint16_t> m16 = { 0, 2, 7, 14, 1, 2, 15, 5, 8, 4, 10, 2, 14, 3, 14, 11 };
    if (M == 4)
        return m4;
    if (M == 8)
        return m8;
    if (M >= 16 && M <= 256 && (M & (M - 1)) == 0)
        return m16;
    throw std::invalid_argument("M: " + std::to_string(M) + " has no SCPPM sync marker (4, 8, ..., 256)");
}

size_t scppm_frame_slots(const scppm_code& code)
{
    return (scppm_sync_marker(code.M).size() + size_t(code.symbols())) * scppm_symbol_slots(code.M);
}

void scppm_frame(const scppm_code& code, const uint16_t* symbols, uint8_t* out)
{
    const size_t per = scppm_symbol_slots(code.M);
    const auto& csm = scppm_sync_marker(code.M);
    std::fill(out, out + scppm_frame_slots(code), uint8_t(0));
    for (size_t s = 0; s < csm.size(); ++s)
        out[s * per + csm[s]] = 1;
    uint8_t* body = out + csm.size() * per;
    for (size_t s = 0; s < size_t(code.symbols()); ++s) {
        if (symbols[s] >= code.M)
            throw std::invalid_argument("scppm_frame: symbol " + std::to_string(symbols[s]) + " is not below M");
        body[s * per + symbols[s]] = 1;
    }
}

size_t scppm_find_marker(const scppm_code& code, const float* counts, size_t search, double* score)
{
    const size_t per = scppm_symbol_slots(code.M);
    const auto& csm = scppm_sync_marker(code.M);
    size_t best = 0;
    double top = -1;
    for (size_t off = 0; off < search; ++off) {
        double x = 0;
        for (size_t s = 0; s < csm.size(); ++s)
            x += double(counts[off + s * per + csm[s]]);
        if (x > top) {
            top = x;
            best = off;
        }
    }
    if (score)
        *score = top;
    return best;
}

void scppm_deframe(const scppm_code& code, const float* counts, float* out)
{
    const size_t per = scppm_symbol_slots(code.M), M = size_t(code.M);
    const float* body = counts + scppm_sync_marker(code.M).size() * per;
    for (size_t s = 0; s < size_t(code.symbols()); ++s)
        std::copy(body + s * per, body + s * per + M, out + s * M);
}

template <typename T>
conv_symbol_interleaver<T>::conv_symbol_interleaver(int rows, int B, size_t width, bool deinterleave)
    : d_rows(rows), d_B(B), d_width(width), d_de(deinterleave)
{
    if (rows < 1 || B < 0 || width < 1)
        throw std::invalid_argument("conv_symbol_interleaver: rows >= 1, B >= 0 and width >= 1");
    reset();
}

template <typename T>
void conv_symbol_interleaver<T>::reset()
{
    d_fifo.assign(size_t(d_rows), {});
    for (int r = 0; r < d_rows; ++r) {
        const size_t delay = size_t(d_de ? d_rows - 1 - r : r) * size_t(d_B);
        d_fifo[size_t(r)].assign(delay * d_width, T(0));
    }
    d_head.assign(size_t(d_rows), 0);
    d_next_row = 0;
}

template <typename T>
void conv_symbol_interleaver<T>::push(const T* in, size_t symbols, T* out)
{
    for (size_t k = 0; k < symbols; ++k) {
        const T* x = in + k * d_width;
        T* y = out + k * d_width;
        std::vector<T>& f = d_fifo[d_next_row];
        if (f.empty()) {
            std::copy(x, x + d_width, y);
        } else { // the oldest symbol of the row leaves, this one takes its place
            size_t& h = d_head[d_next_row];
            std::copy(f.begin() + long(h), f.begin() + long(h + d_width), y);
            std::copy(x, x + d_width, f.begin() + long(h));
            h = (h + d_width) % f.size();
        }
        d_next_row = (d_next_row + 1) % size_t(d_rows);
    }
}

template class conv_symbol_interleaver<float>;
template class conv_symbol_interleaver<uint8_t>;

} // namespace gpufec
