/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Python bindings of the BSID channel (a seeded model that sends numpy bit arrays through it),
 * of the TVB code's drift range, and of the CPU MAP decoder with priors (iterative decoding). */
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <gnuradio/gpufec/core/tvb/bsid.h>
#include <gnuradio/gpufec/core/tvb/tvb.h>
#include <algorithm>
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
//! the library decoder with priors: numpy in, (symbols, APPs, erased, end drift) out
class tvb_map_model
{
public:
    explicit tvb_map_model(const std::string& options) : d_dec(gpufec::make_tvb_map_decoder(options)) {}
    py::tuple decode(py::array_t<uint8_t, py::array::c_style | py::array::forcecast> rx, py::object priors)
    {
        const size_t N = d_dec->N(), q = size_t(d_dec->q());
        const uint8_t* y = rx.data();
        if (std::any_of(y, y + rx.size(), [](uint8_t b) { return b > 1; }))
            throw std::invalid_argument("rx: received bits, each 0 or 1");
        const double* pr = nullptr;
        py::array_t<double, py::array::c_style | py::array::forcecast> p;
        if (!priors.is_none()) {
            p = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(priors);
            if (!p || size_t(p.size()) != N * q)
                throw std::invalid_argument("priors: N x q = " + std::to_string(N * q) + " probabilities");
            pr = p.data();
        }
        py::array_t<uint16_t> symbols{ py::ssize_t(N) };
        py::array_t<double> app({ py::ssize_t(N), py::ssize_t(q) });
        gpufec::tvb_result r;
        {
            py::gil_scoped_release nogil;
            r = d_dec->decode(rx.data(), size_t(rx.size()), pr, app.mutable_data(), symbols.mutable_data());
        }
        return py::make_tuple(symbols, app, r.erased, r.end_drift);
    }
    const gpufec::tvb_map_decoder& dec() const { return *d_dec; }

private:
    std::unique_ptr<gpufec::tvb_map_decoder> d_dec;
};
} // namespace

void bind_tvb(py::module& m)
{
    py::class_<tvb_map_model>(m, "tvb_map_decoder",
                              "The TVB MAP decoder (CPU reference) with priors, for iterative decoding with an outer "
                              "code: options as gpufec.tvb_options(...) gives them. decode(rx, priors=None): rx the "
                              "received bits (0/1, any length), priors None or N x q probabilities; returns (symbols "
                              "(N, uint16), APPs (N x q), erased, end drift).")
        .def(py::init<const std::string&>(), py::arg("options"))
        .def("decode", &tvb_map_model::decode, py::arg("rx"), py::arg("priors") = py::none())
        .def_property_readonly("N", [](const tvb_map_model& d) { return d.dec().N(); })
        .def_property_readonly("q", [](const tvb_map_model& d) { return d.dec().q(); })
        .def_property_readonly("min_received", [](const tvb_map_model& d) { return d.dec().min_received(); })
        .def_property_readonly("max_received", [](const tvb_map_model& d) { return d.dec().max_received(); });
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
