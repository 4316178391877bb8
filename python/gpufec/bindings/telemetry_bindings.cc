/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Python bindings of the CCSDS telemetry chain's pieces (numpy in, numpy out): the stream
 * encoder, the codeblock decoder of a layout, the Reed-Solomon correction counts and the FECF.
 * The blocks are C++ (python_bindings.cc) and ccsds_tm.py. */
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/gpufec/core/codes/ccsds_randomizer.h>
#include <gnuradio/gpufec/core/telemetry/ccsds_tm.h>
#include <algorithm>
#include <stdexcept>
#include <tuple>
#include <vector>
#include <string>

namespace py = pybind11;

namespace {

using u8 = py::array_t<uint8_t, py::array::c_style | py::array::forcecast>;
using f32 = py::array_t<float, py::array::c_style | py::array::forcecast>;

//! the layout from the Python keywords
gpufec::ccsds_tm_layout make_layout(const std::string& code, int interleave, int virtual_fill,
                                    const std::string& basis, const std::string& conv)
{
    return gpufec::ccsds_tm_layout::make(code, interleave, virtual_fill, basis, conv);
}

#define GPUFEC_TM_LAYOUT_ARGS                                                                       \
    py::arg("code") = "ccsds:255:223", py::arg("interleave") = 5, py::arg("virtual_fill") = -1,     \
        py::arg("basis") = "default", py::arg("conv") = "default"

} // namespace

void bind_telemetry(py::module& m)
{
    py::class_<gpufec::ccsds_tm_encoder>(m, "ccsds_tm_stream_encoder",
                                         "Transfer frames to CCSDS telemetry channel bits (one per byte): Reed-Solomon "
                                         "or LDPC, randomizer, marker, then the inner convolutional code as one stream.")
        .def(py::init([](const std::string& code, int interleave, int virtual_fill, const std::string& basis,
                         const std::string& conv, bool randomize) {
                 return gpufec::ccsds_tm_encoder(make_layout(code, interleave, virtual_fill, basis, conv), randomize);
             }),
             GPUFEC_TM_LAYOUT_ARGS, py::arg("randomize") = true)
        .def("frame_bytes", [](const gpufec::ccsds_tm_encoder& e) { return e.layout().frame_bytes(); })
        .def("cadu_symbols", [](const gpufec::ccsds_tm_encoder& e) { return e.layout().cadu_symbols(); })
        .def(
            "encode",
            [](gpufec::ccsds_tm_encoder& e, u8 frames) {
                const size_t fb = e.layout().frame_bytes();
                if (frames.ndim() != 1 || frames.size() == 0 || size_t(frames.size()) % fb)
                    throw std::invalid_argument("encode: needs whole transfer frames of " + std::to_string(fb) +
                                                " bytes, got " + std::to_string(frames.size()));
                const auto bits = e.encode(frames.data(), size_t(frames.size()) / fb);
                py::array_t<uint8_t> out{ py::ssize_t(bits.size()) };
                std::copy(bits.begin(), bits.end(), out.mutable_data());
                return out;
            },
            py::arg("frames"), "transfer frames (bytes, back to back) -> channel bits, one per byte");

    m.def(
        "ccsds_tm_codeblock_decoder",
        [](const std::string& code, int interleave, int virtual_fill, const std::string& basis) {
            const auto l = make_layout(code, interleave, virtual_fill, basis, "default");
            return py::make_tuple(l.family, l.family_options(), l.frame_bytes(), l.codeblock_bits(), l.conv);
        },
        py::arg("code") = "ccsds:255:223", py::arg("interleave") = 5, py::arg("virtual_fill") = -1,
        py::arg("basis") = "default",
        "the frame family that decodes a telemetry layout's codeblocks and its options: (family, options, "
        "transfer frame bytes, codeblock bits, the code's default inner code)");
    m.def(
        "ccsds_tm_codes", []() {
            auto v = gpufec::ccsds_tm_rs_codes();
            for (const auto& c : gpufec::ccsds_tm_ldpc_codes())
                v.push_back(c);
            for (const auto& c : gpufec::ccsds_tm_turbo_codes())
                v.push_back(c);
            return v;
        },
        "the codeblock codes a telemetry stream may carry: the Reed-Solomon ones, then the LDPC and turbo ones");
    m.def(
        "rs_codeword_corrections",
        [](u8 received, u8 decoded, const std::string& code, int interleave, int virtual_fill, const std::string& basis) {
            const auto l = make_layout(code, interleave, virtual_fill, basis, "none");
            if (!l.is_rs())
                throw std::invalid_argument("rs_codeword_corrections: " + code + " is not a Reed-Solomon code");
            const size_t bb = l.rs.block_bytes(), ib = l.rs.info_bytes();
            if (received.size() == 0 || size_t(received.size()) % bb ||
                size_t(decoded.size()) != size_t(received.size()) / bb * ib)
                throw std::invalid_argument("rs_codeword_corrections: whole codeblocks of " + std::to_string(bb) +
                                            " bytes and their " + std::to_string(ib) + " decoded bytes each");
            const size_t frames = size_t(received.size()) / bb;
            py::array_t<int32_t> out({ py::ssize_t(frames), py::ssize_t(interleave) });
            gpufec::rs_codeword_corrections(l.rs, received.data(), decoded.data(), frames, out.mutable_data());
            return out;
        },
        py::arg("received"), py::arg("decoded"), py::arg("code") = "ccsds:255:223", py::arg("interleave") = 5,
        py::arg("virtual_fill") = -1, py::arg("basis") = "default",
        "symbols each codeword needed changed (frames x interleave; -1: the codeword did not decode), from the "
        "received codeblocks' bytes and the decoded information bytes");
    m.def(
        "ccsds_fecf_ok",
        [](u8 frames, size_t frame_bytes) {
            if (frame_bytes < 3 || size_t(frames.size()) % frame_bytes)
                throw std::invalid_argument("ccsds_fecf_ok: whole frames of frame_bytes (at least 3) bytes");
            const size_t n = size_t(frames.size()) / frame_bytes;
            py::array_t<uint8_t> out{ py::ssize_t(n) };
            for (size_t f = 0; f < n; ++f)
                out.mutable_data()[f] = gpufec::ccsds_fecf_ok(frames.data() + f * frame_bytes, frame_bytes);
            return out;
        },
        py::arg("frames"), py::arg("frame_bytes"),
        "for each transfer frame (bytes, back to back): whether its last two bytes are the CCSDS CRC-16 of the rest");
    m.def(
        "ccsds_fecf_set",
        [](u8 frames, size_t frame_bytes) {
            if (frame_bytes < 3 || size_t(frames.size()) % frame_bytes)
                throw std::invalid_argument("ccsds_fecf_set: whole frames of frame_bytes (at least 3) bytes");
            py::array_t<uint8_t> out(frames.size());
            std::copy(frames.data(), frames.data() + frames.size(), out.mutable_data());
            for (size_t f = 0; f < size_t(frames.size()) / frame_bytes; ++f)
                gpufec::ccsds_fecf_set(out.mutable_data() + f * frame_bytes, frame_bytes);
            return out;
        },
        py::arg("frames"), py::arg("frame_bytes"), "the frames with the CCSDS CRC-16 written into their last two bytes");
    m.def(
        "ccsds_pn_sequence",
        []() {
            const auto& p = gpufec::ccsds_pn_sequence();
            py::array_t<uint8_t> out{ py::ssize_t(p.size()) };
            std::copy(p.begin(), p.end(), out.mutable_data());
            return out;
        },
        "one period (255 bits) of the CCSDS pseudo-random sequence");
}
