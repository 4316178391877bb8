/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Python bindings of the LTE segmentation and rate-matching helpers (numpy in, numpy out). */
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <gnuradio/gpufec/core/codes/crc.h>
#include <gnuradio/gpufec/core/turbo/lte_coding.h>
#include <gnuradio/gpufec/core/turbo/turbo.h>
#include <vector>
#include <stdexcept>
#include <string>

namespace py = pybind11;

void bind_lte_coding(py::module& m)
{
    using gpufec::lte_rate_matcher;
    using gpufec::lte_segmentation;
    py::class_<lte_segmentation>(m, "lte_segmentation",
                                 "36.212 5.1.2: how B bits (CRC-24A included) are cut into code blocks.")
        .def_static("compute", &lte_segmentation::compute, py::arg("B"))
        .def_readonly("B", &lte_segmentation::B)
        .def_readonly("C", &lte_segmentation::C)
        .def_readonly("K_plus", &lte_segmentation::K_plus)
        .def_readonly("K_minus", &lte_segmentation::K_minus)
        .def_readonly("C_plus", &lte_segmentation::C_plus)
        .def_readonly("C_minus", &lte_segmentation::C_minus)
        .def_readonly("F", &lte_segmentation::F)
        .def_readonly("L", &lte_segmentation::L)
        .def("K", &lte_segmentation::K, py::arg("r"), "K of code block r");
    using u8 = py::array_t<uint8_t, py::array::c_style | py::array::forcecast>;
    using f32 = py::array_t<float, py::array::c_style | py::array::forcecast>;
    using u8in = py::array_t<uint8_t, py::array::c_style | py::array::forcecast>;
    m.def(
        "lte_segment_bits",
        [](const lte_segmentation& seg, u8in bits) {
            if (size_t(bits.size()) != size_t(seg.B))
                throw std::invalid_argument("lte_segment: " + std::to_string(bits.size()) + " bits; the segmentation is for B=" +
                                            std::to_string(seg.B));
            py::list out;
            for (const auto& b : gpufec::lte_segment(seg, bits.data()))
                out.append(py::array_t<uint8_t>(py::ssize_t(b.size()), b.data()));
            return out;
        },
        py::arg("seg"), py::arg("bits"),
        "36.212 5.1.2: the code blocks of B bits (filler zeros first, CRC-24B each when C > 1), a list of arrays");
    m.def(
        "crc_append",
        [](const std::string& name, u8in bits) {
            std::vector<uint8_t> v(bits.data(), bits.data() + bits.size());
            gpufec::crc_append(gpufec::crc_spec::named(name), v);
            return py::array_t<uint8_t>(py::ssize_t(v.size()), v.data());
        },
        py::arg("crc"), py::arg("bits"), "bits (one per byte) with the named CRC (lte-24a, lte-24b, ...) appended");
    m.def(
        "crc_check",
        [](const std::string& name, u8in bits) {
            const auto spec = gpufec::crc_spec::named(name);
            return size_t(bits.size()) >= size_t(spec.width) && gpufec::crc_check(spec, bits.data(), size_t(bits.size()));
        },
        py::arg("crc"), py::arg("bits"), "true when the last bits are the named CRC of the ones before");
    m.def(
        "turbo_encode",
        [](u8in bits, const std::string& code, const std::string& layout) {
            const auto c = gpufec::turbo_code::named(code, gpufec::parse_turbo_layout(layout));
            if (size_t(bits.size()) != size_t(c.K))
                throw std::invalid_argument("turbo_encode: " + std::to_string(bits.size()) + " bits; " + code +
                                            " takes K=" + std::to_string(c.K));
            for (py::ssize_t i = 0; i < bits.size(); ++i)
                if (bits.data()[i] > 1)
                    throw std::invalid_argument("turbo_encode: bit " + std::to_string(i) + " is " +
                                                std::to_string(int(bits.data()[i])) + "; bits are 0 or 1");
            py::array_t<uint8_t> out(py::ssize_t(c.coded_bits()));
            gpufec::turbo_encode(c, bits.data(), out.mutable_data());
            return out;
        },
        py::arg("bits"), py::arg("code") = "lte:6144", py::arg("layout") = "streams",
        "one turbo codeword of K bits (code: lte:K or ccsds:K[:1/r]); the decoder's input order");
    py::class_<lte_rate_matcher>(m, "lte_rate_matcher",
                                 "36.212 5.1.4.1 rate matching of one turbo code block (streams layout).")
        .def(py::init<int, int, int>(), py::arg("K"), py::arg("F") = 0, py::arg("Ncb") = 0)
        .def("K", &lte_rate_matcher::K)
        .def("Kw", &lte_rate_matcher::Kw)
        .def("Ncb", &lte_rate_matcher::Ncb)
        .def("k0", &lte_rate_matcher::k0, py::arg("rv"))
        .def(
            "match",
            [](const lte_rate_matcher& r, u8 coded, int E, int rv) {
                if (size_t(coded.size()) != 3 * size_t(r.K()) + 12)
                    throw std::invalid_argument("match: " + std::to_string(coded.size()) + " code bits; K=" +
                                                std::to_string(r.K()) + " has " + std::to_string(3 * r.K() + 12));
                const auto e = r.match(coded.data(), E, rv);
                return py::array_t<uint8_t>(py::ssize_t(e.size()), e.data());
            },
            py::arg("coded"), py::arg("E"), py::arg("rv"), "the E bits of redundancy version rv")
        .def(
            "accumulate",
            [](const lte_rate_matcher& r, f32 soft, int rv, py::array_t<float, py::array::c_style> acc,
               float filler_llr) {
                if (size_t(acc.size()) != 3 * size_t(r.K()) + 12)
                    throw std::invalid_argument("accumulate: acc must hold 3K + 12 = " +
                                                std::to_string(3 * r.K() + 12) + " values");
                r.accumulate(soft.data(), int(soft.size()), rv, acc.mutable_data(), filler_llr);
            },
            py::arg("soft"), py::arg("rv"), py::arg("acc"), py::arg("filler_llr") = -100.f,
            "adds the E = len(soft) soft values of version rv into acc (3K + 12 values, in place)")
        .def_static("block_E", &lte_rate_matcher::block_E, py::arg("G"), py::arg("C"), py::arg("r"), py::arg("Qm"),
                    py::arg("Nl") = 1);
}
