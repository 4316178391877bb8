/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Python bindings of the BSID channel (a seeded model that sends numpy bit arrays through it)
 * and of the TVB code's drift range. */
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <gnuradio/gpufec/core/bsid.h>
#include <random>

namespace py = pybind11;

namespace {
class bsid_model
{
public:
    bsid_model(double Pi, double Pd, double Ps, int max_insertions, uint64_t seed)
        : d_rng(seed ? seed : std::random_device{}())
    {
        set(Pi, Pd, Ps, max_insertions);
    }
    void set(double Pi, double Pd, double Ps, int max_insertions)
    {
        gpufec::bsid_params p;
        p.Pi = Pi;
        p.Pd = Pd;
        p.Ps = Ps;
        p.max_insertions = max_insertions;
        p.check();
        d_p = p;
    }
    py::array_t<uint8_t> transmit(py::array_t<uint8_t, py::array::c_style | py::array::forcecast> bits)
    {
        gpufec::bsid_transmit(bits.data(), size_t(bits.size()), d_p, d_rng, d_out);
        py::array_t<uint8_t> out(py::ssize_t(d_out.size()));
        std::copy(d_out.begin(), d_out.end(), out.mutable_data());
        return out;
    }
    const gpufec::bsid_params& params() const { return d_p; }

private:
    gpufec::bsid_params d_p;
    std::mt19937_64 d_rng;
    std::vector<uint8_t> d_out;
};
} // namespace

void bind_tvb(py::module& m)
{
    py::class_<bsid_model>(m, "bsid_model",
                           "The binary substitution, insertion and deletion channel: insertions of random bits "
                           "(Pi, at most max_insertions in a row), deletions (Pd), substitutions of transmitted bits "
                           "(Ps); seed 0: from the system.")
        .def(py::init<double, double, double, int, uint64_t>(), py::arg("Pi") = 0.01, py::arg("Pd") = 0.01,
             py::arg("Ps") = 0.0, py::arg("max_insertions") = 2, py::arg("seed") = 0)
        .def("set", &bsid_model::set, py::arg("Pi"), py::arg("Pd"), py::arg("Ps"), py::arg("max_insertions"))
        .def("transmit", &bsid_model::transmit, py::arg("bits"), "bits in (one per byte), what comes out");
    m.def(
        "bsid_drift_limits",
        [](double Pi, double Pd, double Ps, int max_insertions, size_t t, double exclusion) {
            gpufec::bsid_params p;
            p.Pi = Pi;
            p.Pd = Pd;
            p.Ps = Ps;
            p.max_insertions = max_insertions;
            const auto l = gpufec::bsid_drift_limits(p, t, exclusion);
            return py::make_tuple(l.lo, l.hi);
        },
        py::arg("Pi"), py::arg("Pd"), py::arg("Ps"), py::arg("max_insertions"), py::arg("t"), py::arg("exclusion") = 1e-10,
        "(lo, hi): the drift range after t bits that holds all but `exclusion` of the probability");
}
