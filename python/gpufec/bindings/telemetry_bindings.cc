/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Python bindings of the CCSDS telemetry chain's pieces (numpy in, numpy out): marker
 * synchronisation on soft symbols, the stream encoder, the Reed-Solomon correction counts and
 * the FECF. The blocks over them are in ccsds_tm.py. */
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

struct tm_sync {
    gpufec::ccsds_tm_layout layout;
    gpufec::soft_marker_sync sync;
};

} // namespace

void bind_telemetry(py::module& m)
{
    py::class_<tm_sync>(m, "ccsds_tm_sync_core",
                        "Marker synchronisation of a CCSDS telemetry stream on soft symbols (positive = bit 1): "
                        "searches every symbol offset and each ambiguity (upright / inverted, and with both_conventions "
                        "the inner code's other convention of its inverted output), follows the marker (slips, "
                        "flywheel, a new search after max_misses in a row) and gives each CADU's symbols from its "
                        "marker on, made upright in the convention of `conv`.")
        .def(py::init([](const std::string& code, int interleave, int virtual_fill, const std::string& basis,
                         const std::string& conv, bool both_conventions, int max_misses, double acquire_sigmas,
                         double track_threshold, int slip_range) {
                 auto l = make_layout(code, interleave, virtual_fill, basis, conv);
                 gpufec::soft_marker_sync::settings s;
                 s.max_misses = max_misses;
                 s.acquire_sigmas = acquire_sigmas;
                 s.track_threshold = track_threshold;
                 s.slip_range = slip_range;
                 return tm_sync{ l, gpufec::soft_marker_sync(gpufec::ccsds_tm_hypotheses(l, both_conventions),
                                                             l.cadu_symbols(), s) };
             }),
             GPUFEC_TM_LAYOUT_ARGS, py::arg("both_conventions") = true, py::arg("max_misses") = 3,
             py::arg("acquire_sigmas") = 6.0, py::arg("track_threshold") = 0.5, py::arg("slip_range") = 2)
        .def("window", [](const tm_sync& x) { return x.sync.window(); }, "symbols the next step needs")
        .def("frame_symbols", [](const tm_sync& x) { return x.sync.frame_symbols(); }, "channel symbols a CADU")
        .def("cadu_bits", [](const tm_sync& x) { return x.layout.cadu_bits(); })
        .def("codeblock_bytes", [](const tm_sync& x) { return x.layout.codeblock_bytes(); })
        .def("frame_bytes", [](const tm_sync& x) { return x.layout.frame_bytes(); })
        .def(
            "step",
            [](tm_sync& x, py::array_t<float, py::array::c_style> in, py::array_t<float, py::array::c_style> out) {
                if (size_t(out.size()) < x.sync.frame_symbols())
                    throw std::invalid_argument("step: out holds fewer than a CADU's " +
                                                std::to_string(x.sync.frame_symbols()) + " symbols");
                const auto r = x.sync.step(in.data(), size_t(in.size()), out.mutable_data());
                return py::make_tuple(r.consumed, r.frame, gpufec::to_string(r.what), r.shift);
            },
            py::arg("symbols"), py::arg("out"),
            "one step: (symbols consumed, whether out[:frame_symbols()] now holds a CADU, event name or '', slip in "
            "symbols)")
        .def(
            "run",
            [](tm_sync& x, py::array_t<float, py::array::c_style> in, py::array_t<float, py::array::c_style> out) {
                // steps while whole CADUs fit in out: (consumed, CADUs given, [(CADU, event, shift)])
                const size_t F = x.sync.frame_symbols(), room = size_t(out.size()) / F, n = size_t(in.size());
                size_t used = 0, given = 0;
                py::list events;
                {
                    py::gil_scoped_release nogil;
                    std::vector<std::tuple<size_t, gpufec::soft_marker_sync::event, long>> ev;
                    while (given < room) {
                        const auto r = x.sync.step(in.data() + used, n - used, out.mutable_data() + given * F);
                        if (r.what != gpufec::soft_marker_sync::event::none)
                            ev.emplace_back(given, r.what, r.shift);
                        used += r.consumed;
                        given += r.frame;
                        if (r.consumed == 0 && !r.frame && r.what == gpufec::soft_marker_sync::event::none)
                            break;
                    }
                    py::gil_scoped_acquire gil;
                    for (const auto& [at, what, shift] : ev)
                        events.append(py::make_tuple(at, gpufec::to_string(what), shift));
                }
                return py::make_tuple(used, given, events);
            },
            py::arg("symbols"), py::arg("out"),
            "steps while whole CADUs fit in out: (symbols consumed, CADUs written, [(CADU index in out, event, "
            "slip)])")
        .def("locked", [](const tm_sync& x) { return x.sync.locked(); })
        .def(
            "hypothesis",
            [](const tm_sync& x) {
                const int h = x.sync.hypothesis();
                return h < 0 ? std::string() : x.sync.hypotheses()[size_t(h)].name;
            },
            "the ambiguity of the lock (or the last one): 'upright', 'inverted', '..., other convention'; '' before any")
        .def("last_correlation", [](const tm_sync& x) { return x.sync.last_correlation(); })
        .def("reset", [](tm_sync& x) { x.sync.reset(); })
        .def("stats", [](const tm_sync& x) {
            const auto& s = x.sync.stats();
            py::dict d;
            d["frames"] = s.frames;
            d["acquisitions"] = s.acquisitions;
            d["losses"] = s.losses;
            d["slips"] = s.slips;
            d["flywheel"] = s.flywheel;
            d["skipped_symbols"] = s.skipped_symbols;
            return d;
        });

    using deframer = gpufec::ccsds_tm_deframer;
    py::class_<deframer>(m, "ccsds_tm_deframer_core",
                         "Whole CADUs (from their marker on) to the codeblocks' de-randomized soft values for the rs "
                         "or ldpc family and their decisions, a bit a byte (gpufec::ccsds_tm_deframer).")
        .def(py::init([](const std::string& code, int interleave, int virtual_fill, const std::string& basis,
                         bool randomized, float scale) {
                 return deframer(make_layout(code, interleave, virtual_fill, basis, "none"), randomized, scale);
             }),
             py::arg("code") = "ccsds:255:223", py::arg("interleave") = 5, py::arg("virtual_fill") = -1,
             py::arg("basis") = "default", py::arg("randomized") = true, py::arg("scale") = 32.0f)
        .def(
            "run",
            [](const deframer& d, py::array in, py::array_t<int8_t, py::array::c_style> soft,
               py::array_t<uint8_t, py::array::c_style> hard) {
                // as many whole CADUs as in holds and soft and hard have room for; returns them
                const size_t per = d.cadu_bits(), nb = d.codeblock_bits();
                const size_t n = std::min({ size_t(in.size()) / per, size_t(soft.size()) / nb,
                                            size_t(hard.size()) / nb });
                if (!(in.flags() & py::array::c_style))
                    throw std::invalid_argument("deframe: the input must be contiguous");
                if (py::isinstance<py::array_t<uint8_t>>(in)) {
                    const auto* x = static_cast<const uint8_t*>(in.data());
                    py::gil_scoped_release nogil;
                    d.run(x, n, soft.mutable_data(), hard.mutable_data());
                } else if (py::isinstance<py::array_t<float>>(in)) {
                    const auto* x = static_cast<const float*>(in.data());
                    py::gil_scoped_release nogil;
                    d.run(x, n, soft.mutable_data(), hard.mutable_data());
                } else {
                    throw std::invalid_argument("deframe: bits (uint8) or soft symbols (float32)");
                }
                return n;
            },
            py::arg("cadus"), py::arg("soft"), py::arg("hard"))
        .def("cadu_bits", &deframer::cadu_bits)
        .def("codeblock_bits", &deframer::codeblock_bits);

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
            return py::make_tuple(l.family(), l.family_options(), l.frame_bytes(), l.codeblock_bytes(), l.conv);
        },
        py::arg("code") = "ccsds:255:223", py::arg("interleave") = 5, py::arg("virtual_fill") = -1,
        py::arg("basis") = "default",
        "the frame family that decodes a telemetry layout's codeblocks and its options: (family, options, "
        "transfer frame bytes, codeblock bytes, the code's default inner code)");
    m.def(
        "ccsds_tm_codes", []() {
            auto v = gpufec::ccsds_tm_rs_codes();
            for (const auto& c : gpufec::ccsds_tm_ldpc_codes())
                v.push_back(c);
            return v;
        },
        "the codeblock codes a telemetry stream may carry: the Reed-Solomon ones, then the LDPC ones");
    m.def(
        "rs_codeword_corrections",
        [](u8 received, u8 decoded, const std::string& code, int interleave, int virtual_fill, const std::string& basis) {
            const auto l = make_layout(code, interleave, virtual_fill, basis, "none");
            if (l.is_ldpc())
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
