/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <gnuradio/gpufec/conv_encoder.h>
#include <gnuradio/gpufec/core/conv_code.h>
#include <gnuradio/gpufec/core/device.h>
#include <gnuradio/gpufec/core/distance_spectrum.h>
#include <gnuradio/gpufec/core/ldpc_code.h>
#include <gnuradio/gpufec/ldpc_decoder.h>
#include <gnuradio/gpufec/ldpc_encoder.h>
#include <gnuradio/gpufec/viterbi_decoder.h>

namespace py = pybind11;

PYBIND11_MODULE(gpufec_python, m)
{
    m.doc() = "gr-gpufec: GPU (CUDA) channel decoders for GNU Radio";
    py::module::import("gnuradio.gr");

    using gr::gpufec::viterbi_decoder;
    py::class_<viterbi_decoder, gr::block, gr::basic_block, std::shared_ptr<viterbi_decoder>>(
        m, "viterbi_decoder", R"doc(Viterbi decoder for rate-1/n convolutional codes (GPU or CPU).

Parameters: code ("ccsds", "nasa-dsn", "80211-3/4", "lte", ... or "custom"), k, polys,
puncture (used when code is "custom"), mode ("streaming", "terminated", "tailbiting",
"truncated"), frame_bits, block_len (D), traceback (L, 0 = 6K), device ("auto", "cpu",
"cuda", "cuda:N"), max_batch, input_type ("float" or "int8"), packed_output, scale
(float -> int8 factor). See docs/viterbi.md.)doc")
        .def(py::init(&viterbi_decoder::make),
             py::arg("code") = "ccsds",
             py::arg("k") = 7,
             py::arg("polys") = std::vector<int>{ 79, -109 },
             py::arg("puncture") = std::vector<int>(),
             py::arg("mode") = "streaming",
             py::arg("frame_bits") = 0,
             py::arg("block_len") = 512,
             py::arg("traceback") = 0,
             py::arg("device") = "auto",
             py::arg("max_batch") = 0,
             py::arg("input_type") = "float",
             py::arg("packed_output") = false,
             py::arg("scale") = 32.0f)
        .def("backend", &viterbi_decoder::backend)
        .def("code_description", &viterbi_decoder::code_description)
        .def("input_per_unit", &viterbi_decoder::input_per_unit)
        .def("output_per_unit", &viterbi_decoder::output_per_unit)
        .def("nan_count", &viterbi_decoder::nan_count);

    using gr::gpufec::conv_encoder;
    py::class_<conv_encoder, gr::block, gr::basic_block, std::shared_ptr<conv_encoder>>(
        m, "conv_encoder", "Convolutional encoder for the codes viterbi_decoder decodes.")
        .def(py::init(&conv_encoder::make),
             py::arg("code") = "ccsds",
             py::arg("k") = 7,
             py::arg("polys") = std::vector<int>{ 79, -109 },
             py::arg("puncture") = std::vector<int>(),
             py::arg("mode") = "streaming",
             py::arg("frame_bits") = 0)
        .def("code_description", &conv_encoder::code_description)
        .def("output_per_frame", &conv_encoder::output_per_frame);

    using gr::gpufec::ldpc_decoder;
    py::class_<ldpc_decoder, gr::block, gr::basic_block, std::shared_ptr<ldpc_decoder>>(
        m, "ldpc_decoder", R"doc(LDPC decoder, layered min-sum on a GPU or the CPU.

Parameters: code (a standard id such as "802.11n:1944:1/2" or "802.16e:2304:2/3A", see
ldpc_codes(), or an alist / base-matrix file), max_iterations, early_termination, algorithm
("layered", "flooding", "sum-product"), device ("auto", "cpu", "cuda", "cuda:N"), max_batch
(codewords per call, 0 = automatic), input_type ("float" or "int8"), output ("info" or
"codeword"), packed_output, precision ("int8", "int16", "float"), normalization, offset,
scale (float -> int8 factor). Tags "ldpc_iterations" and "ldpc_syndrome_ok" mark each output
codeword. See docs/ldpc.md.)doc")
        .def(py::init(&ldpc_decoder::make),
             py::arg("code") = "802.11n:1944:1/2",
             py::arg("max_iterations") = 10,
             py::arg("early_termination") = true,
             py::arg("algorithm") = "layered",
             py::arg("device") = "auto",
             py::arg("max_batch") = 0,
             py::arg("input_type") = "float",
             py::arg("output") = "info",
             py::arg("packed_output") = false,
             py::arg("precision") = "int16",
             py::arg("normalization") = 0.75f,
             py::arg("offset") = 0.0f,
             py::arg("scale") = 32.0f)
        .def("backend", &ldpc_decoder::backend)
        .def("code_description", &ldpc_decoder::code_description)
        .def("codeword_bits", &ldpc_decoder::codeword_bits)
        .def("info_bits", &ldpc_decoder::info_bits)
        .def("nan_count", &ldpc_decoder::nan_count)
        .def("codewords", &ldpc_decoder::codewords)
        .def("failed_codewords", &ldpc_decoder::failed_codewords)
        .def("mean_iterations", &ldpc_decoder::mean_iterations);

    using gr::gpufec::ldpc_encoder;
    py::class_<ldpc_encoder, gr::block, gr::basic_block, std::shared_ptr<ldpc_encoder>>(
        m, "ldpc_encoder", "Systematic LDPC encoder for the codes ldpc_decoder decodes.")
        .def(py::init(&ldpc_encoder::make), py::arg("code") = "802.11n:1944:1/2")
        .def("code_description", &ldpc_encoder::code_description)
        .def("codeword_bits", &ldpc_encoder::codeword_bits)
        .def("info_bits", &ldpc_encoder::info_bits);

    m.def("ldpc_codes", &gpufec::ldpc_code::standard_ids, "Ids of the standard LDPC codes.");
    m.def(
        "ldpc_code_alist",
        [](const std::string& id) { return gpufec::ldpc_code::standard(id).to_alist(); },
        "The parity-check matrix of a standard code in alist format (for gr-fec, AFF3CT).");

    m.def("conv_presets", &gpufec::conv_code::preset_names, "Names of the code presets.");
    m.def(
        "conv_preset",
        [](const std::string& name) {
            const auto c = gpufec::conv_code::preset(name);
            std::vector<int> p(c.puncture.begin(), c.puncture.end());
            return py::make_tuple(c.k, c.polys, p);
        },
        "(k, polys, puncture) of a preset");
    m.def(
        "cuda_devices",
        [] {
            std::vector<std::string> out;
            for (const auto& g : gpufec::cuda_devices())
                out.push_back("cuda:" + std::to_string(g.index) + " " + g.name);
            return out;
        },
        "The usable CUDA devices (empty without a GPU or without CUDA support).");
    m.def("cuda_compiled", &gpufec::cuda_compiled);
    m.def(
        "union_bound_ber",
        [](const std::string& preset, double ebn0_db) {
            const auto c = gpufec::conv_code::preset(preset);
            return gpufec::union_bound_ber(gpufec::distance_spectrum(c, 8),
                                           double(c.period()) / c.kept_per_period(), ebn0_db);
        },
        "Union bound on the BER of an unpunctured preset code (BPSK, AWGN, soft ML).");
}
