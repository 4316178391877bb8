/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Python bindings of the SCPPM code's sizes and framing helpers (numpy in, numpy out): guard
 * slots and the sync marker around codewords, the marker's search and their removal, the
 * channel interleaver. */
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/gpufec/core/scppm_framing.h>
#include <stdexcept>
#include <string>
#include <vector>

namespace py = pybind11;

void bind_scppm(py::module& m)
{
    using gpufec::scppm_code;
    using u8 = py::array_t<uint8_t, py::array::c_style | py::array::forcecast>;
    using f32 = py::array_t<float, py::array::c_style | py::array::forcecast>;
    m.def(
        "scppm_info_bits", [](int M, const std::string& rate) { return scppm_code::make(M, rate).info_bits(); },
        py::arg("M") = 16, py::arg("rate") = "2/3", "information bits per codeword: 15120 * rate - 34");
    m.def(
        "scppm_slots", [](int M, const std::string& rate) { return scppm_code::make(M, rate).slots(); },
        py::arg("M") = 16, py::arg("rate") = "2/3", "slots per codeword (the decoder's input): 15120 / log2(M) x M");
    m.def("scppm_sync_marker", &gpufec::scppm_sync_marker, py::arg("M"),
          "the codeword sync marker's PPM symbols (24 for M = 4, 16 for M >= 8)");
    m.def(
        "scppm_frame_slots", [](int M, const std::string& rate) { return gpufec::scppm_frame_slots(scppm_code::make(M, rate)); },
        py::arg("M") = 16, py::arg("rate") = "2/3", "channel slots of a framed codeword: (marker + 15120 / m) x (M + M / 4)");
    m.def(
        "scppm_add_framing",
        [](u8 slots, int M, const std::string& rate) {
            const scppm_code c = scppm_code::make(M, rate);
            const size_t n = c.slots();
            if (slots.size() == 0 || size_t(slots.size()) % n)
                throw std::invalid_argument("scppm_add_framing: " + std::to_string(slots.size()) +
                                            " slots is not a whole number of codewords of " + std::to_string(n));
            const size_t frames = size_t(slots.size()) / n, fs = gpufec::scppm_frame_slots(c);
            py::array_t<uint8_t> out(py::ssize_t(frames * fs));
            std::vector<uint16_t> sym(size_t(c.symbols()));
            for (size_t f = 0; f < frames; ++f) {
                const uint8_t* s = slots.data() + f * n;
                for (size_t i = 0; i < sym.size(); ++i) { // each symbol's pulsed slot
                    int at = -1;
                    for (int j = 0; j < M; ++j)
                        if (s[i * size_t(M) + size_t(j)])
                            at = at < 0 ? j : M; // a second pulse: not PPM
                    if (at < 0 || at >= M)
                        throw std::invalid_argument("scppm_add_framing: symbol " + std::to_string(i) +
                                                    " of codeword " + std::to_string(f) + " does not have one pulse");
                    sym[i] = uint16_t(at);
                }
                gpufec::scppm_frame(c, sym.data(), out.mutable_data() + f * fs);
            }
            return out;
        },
        py::arg("slots"), py::arg("M") = 16, py::arg("rate") = "2/3",
        "codewords' slots (as scppm_encoder gives them) -> the channel's slots: each codeword behind the "
        "sync marker, every symbol followed by M / 4 guard slots");
    m.def(
        "scppm_find_marker",
        [](f32 counts, int M, const std::string& rate, size_t search) {
            const scppm_code c = scppm_code::make(M, rate);
            if (search == 0)
                search = gpufec::scppm_frame_slots(c);
            if (size_t(counts.size()) < search + gpufec::scppm_frame_slots(c))
                throw std::invalid_argument("scppm_find_marker: needs search + one frame (" +
                                            std::to_string(search + gpufec::scppm_frame_slots(c)) + ") counts");
            double score = 0;
            const size_t at = gpufec::scppm_find_marker(c, counts.data(), search, &score);
            return py::make_tuple(at, score);
        },
        py::arg("counts"), py::arg("M") = 16, py::arg("rate") = "2/3", py::arg("search") = 0,
        "(offset, photons): where in the first `search` slots (0: one frame) a sync marker starts");
    m.def(
        "scppm_deframe",
        [](f32 counts, int M, const std::string& rate) {
            const scppm_code c = scppm_code::make(M, rate);
            const size_t fs = gpufec::scppm_frame_slots(c);
            if (counts.size() == 0 || size_t(counts.size()) % fs)
                throw std::invalid_argument("scppm_deframe: " + std::to_string(counts.size()) +
                                            " counts is not a whole number of frames of " + std::to_string(fs));
            const size_t frames = size_t(counts.size()) / fs;
            py::array_t<float> out(py::ssize_t(frames * c.slots()));
            for (size_t f = 0; f < frames; ++f)
                gpufec::scppm_deframe(c, counts.data() + f * fs, out.mutable_data() + f * c.slots());
            return out;
        },
        py::arg("counts"), py::arg("M") = 16, py::arg("rate") = "2/3",
        "frames that start at their marker -> the decoder's input (marker and guard slots removed)");
    using il = gpufec::conv_symbol_interleaver<float>;
    py::class_<il>(m, "conv_symbol_interleaver",
                   "Convolutional interleaver of symbols of `width` values (N rows, row r delays by r B symbols; "
                   "deinterleave=True: (N - 1 - r) B), streaming; the rows start with zero symbols.")
        .def(py::init<int, int, size_t, bool>(), py::arg("rows"), py::arg("B"), py::arg("width"),
             py::arg("deinterleave") = false)
        .def(
            "push",
            [](il& x, f32 in, size_t width) {
                if (width == 0 || size_t(in.size()) % width)
                    throw std::invalid_argument("push: " + std::to_string(in.size()) +
                                                " values is not a whole number of symbols of " + std::to_string(width));
                py::array_t<float> out(in.size());
                x.push(in.data(), size_t(in.size()) / width, out.mutable_data());
                return out;
            },
            py::arg("values"), py::arg("width"), "whole symbols in, as many out (delayed)")
        .def("end_to_end_delay", &il::end_to_end_delay)
        .def("reset", &il::reset);
}
