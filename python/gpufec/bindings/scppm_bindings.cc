/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Python bindings of the SCPPM code's sizes and framing helpers (numpy in, numpy out): guard
 * slots and the sync marker around codewords, the marker's search and their removal, codeword
 * synchronisation on a stream, the channel interleaver, the pseudo-randomizer. */
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/gpufec/core/scppm/scppm_framing.h>
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace py = pybind11;

namespace {
template <typename T>
void bind_interleaver(py::module& m, const char* name)
{
    using il = gpufec::conv_symbol_interleaver<T>;
    using arr = py::array_t<T, py::array::c_style | py::array::forcecast>;
    py::class_<il>(m, name,
                   "Convolutional interleaver of symbols of `width` values (N rows, row r delays by r B symbols; "
                   "deinterleave=True: (N - 1 - r) B), streaming; the rows start with `fill` symbols "
                   "(width values; empty: zeros).")
        .def(py::init<int, int, size_t, bool, std::vector<T>>(), py::arg("rows"), py::arg("B"), py::arg("width"),
             py::arg("deinterleave") = false, py::arg("fill") = std::vector<T>())
        .def(
            "push",
            [](il& x, arr in, size_t width) {
                if (width == 0 || size_t(in.size()) % width)
                    throw std::invalid_argument("push: " + std::to_string(in.size()) +
                                                " values is not a whole number of symbols of " + std::to_string(width));
                py::array_t<T> out(in.size());
                x.push(in.data(), size_t(in.size()) / width, out.mutable_data());
                return out;
            },
            py::arg("values"), py::arg("width"), "whole symbols in, as many out (delayed)")
        .def(
            "push_into",
            [](il& x, py::array_t<T, py::array::c_style> in, py::array_t<T, py::array::c_style> out, size_t width) {
                if (width == 0 || size_t(in.size()) % width || out.size() < in.size())
                    throw std::invalid_argument("push_into: whole symbols of `width` values in, room for as many out");
                x.push(in.data(), size_t(in.size()) / width, out.mutable_data());
            },
            py::arg("values"), py::arg("out"), py::arg("width"), "push() writing into `out` (no new array)")
        .def("end_to_end_delay", &il::end_to_end_delay)
        .def("reset", &il::reset);
}
} // namespace

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
    using sync = gpufec::scppm_frame_sync;
    py::class_<sync>(m, "scppm_codeword_sync",
                     "Codeword synchronisation on a stream of slot counts: finds the sync marker, follows it "
                     "(slips, flywheel through missed markers, re-search after max_misses in a row) and gives "
                     "each codeword's decoder input.")
        .def(py::init([](int M, const std::string& rate, int max_misses, double acquire_sigmas, double miss_ratio) {
                 return sync(scppm_code::make(M, rate), max_misses, acquire_sigmas, miss_ratio);
             }),
             py::arg("M") = 16, py::arg("rate") = "2/3", py::arg("max_misses") = 3, py::arg("acquire_sigmas") = 7.0,
             py::arg("miss_ratio") = 0.5)
        .def("window", &sync::window, "counts the next step needs")
        .def(
            "step",
            [](sync& x, py::array_t<float, py::array::c_style> counts, py::array_t<float, py::array::c_style> out) {
                if (size_t(out.size()) < x.code().slots())
                    throw std::invalid_argument("step: out holds fewer than a codeword's " +
                                                std::to_string(x.code().slots()) + " slots");
                const auto r = x.step(counts.data(), size_t(counts.size()), out.mutable_data());
                static const char* names[] = { "", "acquired", "slipped", "flywheel", "lost" };
                return py::make_tuple(r.consumed, r.frame, names[int(r.what)], r.shift);
            },
            py::arg("counts"), py::arg("out"),
            "one step: (counts consumed, whether out[:slots] now holds a codeword, event name or '', slip in slots)")
        .def("locked", &sync::locked)
        .def("reset", &sync::reset)
        .def("stats", [](const sync& x) {
            const auto& s = x.stats();
            py::dict d;
            d["frames"] = s.frames;
            d["acquisitions"] = s.acquisitions;
            d["losses"] = s.losses;
            d["slips"] = s.slips;
            d["flywheel"] = s.flywheel;
            d["skipped_slots"] = s.skipped_slots;
            return d;
        });
    m.def(
        "ccsds_randomize",
        [](u8 bits) {
            py::array_t<uint8_t> out(bits.size());
            std::copy(bits.data(), bits.data() + bits.size(), out.mutable_data());
            gpufec::ccsds_randomize(out.mutable_data(), size_t(out.size()));
            return out;
        },
        py::arg("bits"),
        "bits (one per byte) plus the CCSDS pseudo-random sequence from its start (255-bit period): randomizes "
        "and de-randomizes");
    bind_interleaver<float>(m, "conv_symbol_interleaver");
    bind_interleaver<uint8_t>(m, "conv_symbol_interleaver_b");
}
