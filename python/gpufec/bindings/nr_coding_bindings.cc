/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Python bindings of the 5G NR LDPC rate matching helper (numpy in, numpy out). */
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <gnuradio/gpufec/core/ldpc/nr_coding.h>
#include <stdexcept>
#include <string>

namespace py = pybind11;

void bind_nr_coding(py::module& m)
{
    using gpufec::nr_rate_matcher;
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
            "adds the E = len(soft) soft values of version rv into acc (sent() values, in place)");
}
