/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Python bindings of the 5G NR LDPC rate matching helper (numpy in, numpy out). */
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <gnuradio/gpufec/core/ldpc/nr_coding.h>
#include <algorithm>
#include <stdexcept>
#include <vector>
#include <string>

namespace py = pybind11;

void bind_nr_coding(py::module& m)
{
    using gpufec::nr_rate_matcher;
    using gpufec::nr_segmentation;
    m.def("nr_base_graph", &gpufec::nr_base_graph, py::arg("A"), py::arg("R"),
          "38.212 7.2.2: the LDPC base graph (1 or 2) of a transport block of A bits at code rate R");
    m.def("nr_tb_crc_bits", &gpufec::nr_tb_crc_bits, py::arg("A"), "the transport block CRC's bits (24 or 16)");
    py::class_<nr_segmentation>(m, "nr_segmentation",
                                "38.212 5.2.2: how B bits (the transport block CRC included) are cut into "
                                "LDPC code blocks.")
        .def_static("compute", &nr_segmentation::compute, py::arg("B"), py::arg("bg"))
        .def_readonly("B", &nr_segmentation::B)
        .def_readonly("bg", &nr_segmentation::bg)
        .def_readonly("C", &nr_segmentation::C)
        .def_readonly("L", &nr_segmentation::L)
        .def_readonly("K_prime", &nr_segmentation::K_prime)
        .def_readonly("K", &nr_segmentation::K)
        .def_readonly("Z", &nr_segmentation::Z)
        .def_readonly("F", &nr_segmentation::F)
        .def("ldpc_options", &nr_segmentation::ldpc_options,
             "the ldpc family's options of a code block (code=nr:bg..:Z, shorten=K':K)");
    m.def(
        "nr_segment",
        [](const nr_segmentation& seg, py::array_t<uint8_t, py::array::c_style | py::array::forcecast> bits) {
            if (bits.size() != seg.B)
                throw std::invalid_argument("nr_segment: " + std::to_string(bits.size()) + " bits; the segmentation is of B = " +
                                            std::to_string(seg.B));
            const auto blocks = gpufec::nr_segment(seg, bits.data());
            py::array_t<uint8_t> out({ py::ssize_t(seg.C), py::ssize_t(seg.K_prime) });
            for (int r = 0; r < seg.C; ++r)
                std::copy(blocks[size_t(r)].begin(), blocks[size_t(r)].end(), out.mutable_data(r, 0));
            return out;
        },
        py::arg("seg"), py::arg("bits"), "the C x K' code blocks (CRC24B appended where C > 1)");
    m.def(
        "nr_desegment",
        [](const nr_segmentation& seg, py::array_t<uint8_t, py::array::c_style | py::array::forcecast> blocks) {
            if (blocks.size() != py::ssize_t(seg.C) * seg.K_prime)
                throw std::invalid_argument("nr_desegment: expected C x K' = " + std::to_string(seg.C) + " x " +
                                            std::to_string(seg.K_prime) + " bits");
            py::array_t<uint8_t> bits(py::ssize_t(seg.B));
            std::vector<uint8_t> ok;
            gpufec::nr_desegment(seg, blocks.data(), bits.mutable_data(), &ok);
            return py::make_tuple(bits, py::array_t<uint8_t>(py::ssize_t(ok.size()), ok.data()));
        },
        py::arg("seg"), py::arg("blocks"), "(the B bits, each block's CRC24B result)");
    using u8 = py::array_t<uint8_t, py::array::c_style | py::array::forcecast>;
    using f32 = py::array_t<float, py::array::c_style | py::array::forcecast>;
    py::class_<nr_rate_matcher>(m, "nr_rate_matcher",
                                "38.212 5.4.2 rate matching of one LDPC code block (the ldpc family's "
                                "nr:bg<1|2>:<Z> code as sent, its K - K' filler bits shortened).")
        .def(py::init<int, int, int, int>(), py::arg("bg"), py::arg("Z"), py::arg("K_prime"), py::arg("Ncb") = 0)
        .def("N", &nr_rate_matcher::N)
        .def("Ncb", &nr_rate_matcher::Ncb)
        .def("filler", &nr_rate_matcher::filler)
        .def("sent", &nr_rate_matcher::sent, "values a frame of the code block (N - F)")
        .def("k0", &nr_rate_matcher::k0, py::arg("rv"))
        .def(
            "match",
            [](const nr_rate_matcher& r, u8 frame, int E, int rv, int Qm) {
                if (frame.size() != r.sent())
                    throw std::invalid_argument("match: a frame of " + std::to_string(frame.size()) +
                                                " bits; this code block sends " + std::to_string(r.sent()));
                const auto f = r.match(frame.data(), E, rv, Qm);
                return py::array_t<uint8_t>(py::ssize_t(f.size()), f.data());
            },
            py::arg("frame"), py::arg("E"), py::arg("rv"), py::arg("Qm") = 1,
            "the E bits of redundancy version rv, interleaved for Qm bits a symbol")
        .def(
            "accumulate",
            [](const nr_rate_matcher& r, f32 soft, int rv, py::array_t<float, py::array::c_style> acc, int Qm) {
                if (acc.size() != r.sent())
                    throw std::invalid_argument("accumulate: acc must hold sent() = " + std::to_string(r.sent()) +
                                                " values");
                r.accumulate(soft.data(), int(soft.size()), rv, Qm, acc.mutable_data());
            },
            py::arg("soft"), py::arg("rv"), py::arg("acc"), py::arg("Qm") = 1,
            "adds the E = len(soft) soft values of version rv into acc (sent() values, in place)")
        .def(
            "mark_received",
            [](const nr_rate_matcher& r, int E, int rv, py::array_t<uint8_t, py::array::c_style> received, int Qm) {
                if (received.size() != r.sent())
                    throw std::invalid_argument("mark_received: received must hold sent() = " +
                                                std::to_string(r.sent()) + " flags");
                r.mark_received(E, rv, Qm, received.mutable_data());
            },
            py::arg("E"), py::arg("rv"), py::arg("received"), py::arg("Qm") = 1,
            "sets received[i] (sent() uint8 flags, in place) for each frame value E values of version rv reach")
        .def(
            "ldpc_erased",
            [](const nr_rate_matcher& r, u8 received) {
                if (received.size() != r.sent())
                    throw std::invalid_argument("ldpc_erased: received must hold sent() = " +
                                                std::to_string(r.sent()) + " flags");
                return r.ldpc_erased(received.data());
            },
            py::arg("received"),
            "the ldpc family's erased option for the values not received (codeword ranges; '' for none)");
}
