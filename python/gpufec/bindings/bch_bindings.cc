/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Python bindings of the binary BCH codes (codes layer): bits one per byte in numpy arrays. */
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <gnuradio/gpufec/core/codes/bch.h>
#include <stdexcept>
#include <string>

namespace py = pybind11;

namespace {

using bits_in = py::array_t<uint8_t, py::array::c_style | py::array::forcecast>;

void need_length(const bits_in& a, int want, const char* what)
{
    if (a.ndim() != 1 || a.shape(0) != want)
        throw std::invalid_argument(std::string(what) + ": needs " + std::to_string(want) + " bits, got " +
                                    std::to_string(a.ndim() == 1 ? a.shape(0) : a.size()));
}

} // namespace

void bind_bch(py::module& m)
{
    using gpufec::bch_code;
    py::class_<bch_code>(m, "bch_code",
                         "A binary narrow-sense BCH code over GF(2^m), shortened to n bits, systematic (message "
                         "first), bits MSB first. bch_code(m, primitive, t, n) or bch_code.dvbs2(ldpc_n, rate).")
        .def(py::init<int, uint32_t, int, int>(), py::arg("m"), py::arg("primitive"), py::arg("t"), py::arg("n"))
        .def_static("dvbs2", &bch_code::dvbs2, py::arg("ldpc_n"), py::arg("rate"),
                    "DVB-S2's outer code for the LDPC FECFRAME length (64800, 16200) and nominal rate")
        .def("n", &bch_code::n)
        .def("k", &bch_code::k)
        .def("t", &bch_code::t)
        .def("m", &bch_code::m)
        .def("parity_bits", &bch_code::parity_bits)
        .def("describe", &bch_code::describe)
        .def("generator", [](const bch_code& c) {
            const auto& g = c.generator();
            py::array_t<uint8_t> out(py::ssize_t(g.size()));
            std::copy(g.begin(), g.end(), out.mutable_data());
            return out;
        }, "the generator's coefficients, g_0 first")
        .def("encode", [](const bch_code& c, bits_in msg) {
            need_length(msg, c.k(), "encode");
            py::array_t<uint8_t> out(c.n());
            c.encode(msg.data(), out.mutable_data());
            return out;
        }, py::arg("message"), "k bits to the n-bit codeword")
        .def("decode", [](const bch_code& c, bits_in word) {
            need_length(word, c.n(), "decode");
            py::array_t<uint8_t> out(c.n());
            std::copy(word.data(), word.data() + c.n(), out.mutable_data());
            const int corrected = c.decode(out.mutable_data());
            return py::make_tuple(out, corrected);
        }, py::arg("word"), "(the corrected n bits, bits corrected or -1 for a failure: the word as it came)");
}
