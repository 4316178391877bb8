/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <climits>
#include <cstring>
#include <cstdint>
#include <stdexcept>

#include <gnuradio/gpufec/conv_encoder.h>
#include <gnuradio/gpufec/core/codes/conv_code.h>
#include <gnuradio/gpufec/core/runtime/device.h>
#include <gnuradio/gpufec/core/codes/distance_spectrum.h>
#include <gnuradio/gpufec/core/codes/dvbs2_interleaver.h>
#include <gnuradio/gpufec/core/frame/frame_registry.h>
#include <gnuradio/gpufec/core/ldpc/ldpc_code.h>
#include <gnuradio/gpufec/frame_decoder.h>
#include <gnuradio/gpufec/pdu_decoder.h>
#include <gnuradio/gpufec/ccsds_tm_deframer.h>
#include <gnuradio/gpufec/ccsds_tm_frame_check.h>
#include <gnuradio/gpufec/ccsds_tm_sync.h>
#include <gnuradio/gpufec/fec_objects.h>
#include <gnuradio/gpufec/ldpc_decoder.h>
#include <gnuradio/gpufec/ldpc_encoder.h>
#include <gnuradio/gpufec/viterbi_decoder.h>

namespace py = pybind11;

void bind_bch(py::module& m);        // bch_bindings.cc
void bind_lte_coding(py::module& m); // lte_coding_bindings.cc
void bind_nr_coding(py::module& m);  // nr_coding_bindings.cc
void bind_scppm(py::module& m);      // scppm_bindings.cc
void bind_tvb(py::module& m);        // tvb_bindings.cc
void bind_telemetry(py::module& m);  // telemetry_bindings.cc

namespace {
// Python integers of any size reach these, so that out-of-range values get a message naming the
// parameter (ValueError) instead of pybind's list of signatures
int int_param(long long v, const char* name)
{
    if (v < INT32_MIN || v > INT32_MAX)
        throw std::invalid_argument(std::string(name) + ": " + std::to_string(v) +
                                    " is out of range");
    return int(v);
}
std::vector<int> int_list_param(const std::vector<long long>& v, const char* name)
{
    std::vector<int> out;
    for (long long x : v)
        out.push_back(int_param(x, name));
    return out;
}

/* Messages may quote bytes of the user's input (a file, an options string, a family name) that
 * are not UTF-8; pybind11's own translation then fails and Python sees ValueError(''). Every
 * message goes over with such bytes escaped as \xNN. */
void raise_with_message(PyObject* type, const char* what)
{
    PyObject* text = PyUnicode_DecodeUTF8(what, Py_ssize_t(std::strlen(what)), "backslashreplace");
    if (!text) {
        PyErr_Clear();
        text = PyUnicode_FromString("(a message that could not be decoded)");
    }
    PyErr_SetObject(type, text);
    Py_DECREF(text);
}

void translate_exceptions(std::exception_ptr p)
{
    try {
        if (p)
            std::rethrow_exception(p);
    } catch (const py::builtin_exception&) {
        throw; // pybind11's own (already a Python error)
    } catch (const py::error_already_set&) {
        throw;
    } catch (const std::invalid_argument& e) {
        raise_with_message(PyExc_ValueError, e.what());
    } catch (const std::domain_error& e) {
        raise_with_message(PyExc_ValueError, e.what());
    } catch (const std::length_error& e) {
        raise_with_message(PyExc_ValueError, e.what());
    } catch (const std::out_of_range& e) {
        raise_with_message(PyExc_IndexError, e.what());
    } catch (const std::bad_alloc&) {
        raise_with_message(PyExc_MemoryError, "out of memory (std::bad_alloc)");
    } catch (const std::exception& e) {
        raise_with_message(PyExc_RuntimeError, e.what());
    }
}
} // namespace

PYBIND11_MODULE(gpufec_python, m)
{
    py::register_exception_translator(&translate_exceptions);
    bind_bch(m);
    bind_lte_coding(m);
    bind_nr_coding(m);
    bind_scppm(m);
    bind_tvb(m);
    bind_telemetry(m);
    m.doc() = "gr-gpufec: GPU (CUDA) channel decoders for GNU Radio";
    py::module::import("gnuradio.gr");
    py::module::import("gnuradio.fec"); // generic_decoder / generic_encoder, our objects' bases

    using gr::gpufec::viterbi_decoder;
    py::class_<viterbi_decoder, gr::block, gr::basic_block, std::shared_ptr<viterbi_decoder>>(
        m, "viterbi_decoder", R"doc(Viterbi decoder for rate-1/n convolutional codes (GPU or CPU).

Parameters: code ("ccsds", "nasa-dsn", "80211-3/4", "lte", ... or "custom"), k, polys,
puncture (used when code is "custom"), mode ("streaming", "terminated", "tailbiting",
"truncated"), frame_bits, block_len (D), traceback (L, 0 = 6K), device ("auto", "cpu",
"cuda", "cuda:N"), max_batch, input_type ("float" or "int8"), packed_output, scale
(float -> int8 factor). See docs/viterbi.md.)doc")
        .def(py::init([](const std::string& code, long long k, const std::vector<long long>& polys,
                         const std::vector<long long>& puncture, const std::string& mode,
                         long long frame_bits, long long block_len, long long traceback,
                         const std::string& device, long long max_batch, const std::string& input_type,
                         bool packed_output, float scale) {
                 return viterbi_decoder::make(code, int_param(k, "k"), int_list_param(polys, "polys"),
                                              int_list_param(puncture, "puncture"), mode,
                                              int_param(frame_bits, "frame_bits"),
                                              int_param(block_len, "block_len"),
                                              int_param(traceback, "traceback"), device,
                                              int_param(max_batch, "max_batch"), input_type,
                                              packed_output, scale);
             }),
             py::arg("code") = "ccsds",
             py::arg("k") = 7,
             py::arg("polys") = std::vector<long long>{ 79, -109 },
             py::arg("puncture") = std::vector<long long>(),
             py::arg("mode") = "streaming",
             py::arg("frame_bits") = 1024,
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
        .def(py::init([](const std::string& code, long long k, const std::vector<long long>& polys,
                         const std::vector<long long>& puncture, const std::string& mode,
                         long long frame_bits) {
                 return conv_encoder::make(code, int_param(k, "k"), int_list_param(polys, "polys"),
                                           int_list_param(puncture, "puncture"), mode,
                                           int_param(frame_bits, "frame_bits"));
             }),
             py::arg("code") = "ccsds",
             py::arg("k") = 7,
             py::arg("polys") = std::vector<long long>{ 79, -109 },
             py::arg("puncture") = std::vector<long long>(),
             py::arg("mode") = "streaming",
             py::arg("frame_bits") = 1024)
        .def("code_description", &conv_encoder::code_description)
        .def("output_per_frame", &conv_encoder::output_per_frame);

    using gr::gpufec::frame_decoder;
    py::class_<frame_decoder, gr::block, gr::basic_block, std::shared_ptr<frame_decoder>>(
        m, "frame_decoder", R"doc(Decoder of any frame family (LDPC, Viterbi frames, repetition, ...).

Parameters: family (see frame_families()), options ("key=value, ..."; see
frame_family_options(family)), device ("auto", "cpu", "cuda", "cuda:N"), max_batch (frames
per batch, 0 = automatic), input_type ("float" or "int8"), packed_output, scale (float -> int8
factor), status_tags ("failures": tags "<family>_iterations", "<family>_<check>",
"<family>_erased" on frames that failed their check or were erased; "all"; "none"),
length_tag_key (tagged-stream face: "packet_len" packets of whole frames in, packets of their
decoded frames out; empty: the stream face). Batches are decoded asynchronously; see docs/platform.md.)doc")
        .def(py::init([](const std::string& family, const std::string& options, const std::string& device,
                         long long max_batch, const std::string& input_type, bool packed_output,
                         float scale, const std::string& status_tags, const std::string& length_tag_key) {
                 return frame_decoder::make(family, options, device, int_param(max_batch, "max_batch"),
                                            input_type, packed_output, scale, status_tags, length_tag_key);
             }),
             py::arg("family"),
             py::arg("options") = "",
             py::arg("device") = "auto",
             py::arg("max_batch") = 0,
             py::arg("input_type") = "float",
             py::arg("packed_output") = false,
             py::arg("scale") = 32.0f,
             py::arg("status_tags") = "failures",
             py::arg("length_tag_key") = "")
        .def("backend", &frame_decoder::backend)
        .def("code_description", &frame_decoder::code_description)
        .def("input_per_frame", &frame_decoder::input_per_frame)
        .def("output_per_frame", &frame_decoder::output_per_frame)
        .def("batch_frames", &frame_decoder::batch_frames)
        .def("frames", &frame_decoder::frames)
        .def("failed_frames", &frame_decoder::failed_frames)
        .def("erased_frames", &frame_decoder::erased_frames)
        .def("mean_iterations", &frame_decoder::mean_iterations)
        .def("nan_count", &frame_decoder::nan_count)
        .def("dropped_items", &frame_decoder::dropped_items)
        .def("dropped_packets", &frame_decoder::dropped_packets)
        .def("set_option", &frame_decoder::set_option, py::arg("key"), py::arg("value"),
             "changes max_iterations, early_termination, scaling, normalization or offset while running")
        .def("set_max_iterations", &frame_decoder::set_max_iterations, py::arg("n"))
        .def("set_early_termination", &frame_decoder::set_early_termination, py::arg("on"));

    using gr::gpufec::ldpc_decoder;
    py::class_<ldpc_decoder, frame_decoder, std::shared_ptr<ldpc_decoder>>(
        m, "ldpc_decoder", R"doc(LDPC decoder, layered min-sum on a GPU or the CPU.

Parameters: code (a standard id such as "802.11n:1944:1/2" or "802.16e:2304:2/3A", see
ldpc_codes(), or an alist / base-matrix file), max_iterations, early_termination, algorithm
("layered", "flooding", "sum-product"), device ("auto", "cpu", "cuda", "cuda:N"), max_batch
(codewords per batch, 0 = automatic), input_type ("float" or "int8"), output ("info" or
"codeword"), packed_output, precision ("int8", "int16", "float"), normalization, offset,
scale (float -> int8 factor), status_tags ("failures", "all", "none"). Tags "ldpc_iterations"
and "ldpc_syndrome_ok" mark the codewords status_tags names ("ldpc_erased" those whose input was
all zero or NaN); by default only codewords whose syndrome is not zero. outer ("none", "bch": DVB-S2's
BCH after a dvbs2 code; K_bch bits out, tags "ldpc_bch_ok" and "ldpc_inner_ok"), interleaver ("none";
dvbs2 codes: "8psk", "16apsk", "32apsk", frames through DVB-S2's bit interleaver). See docs/ldpc.md.)doc")
        .def(py::init([](const std::string& code, long long max_iterations, bool early_termination,
                         const std::string& algorithm, const std::string& device, long long max_batch,
                         const std::string& input_type, const std::string& output, bool packed_output,
                         const std::string& precision, float normalization, float offset, float scale,
                         const std::string& status_tags, const std::string& length_tag_key,
                         const std::string& outer, const std::string& interleaver) {
                 return ldpc_decoder::make(code, int_param(max_iterations, "max_iterations"),
                                           early_termination, algorithm, device,
                                           int_param(max_batch, "max_batch"), input_type, output,
                                           packed_output, precision, normalization, offset, scale,
                                           status_tags, length_tag_key, outer, interleaver);
             }),
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
             py::arg("normalization") = 0.0f,
             py::arg("offset") = 0.0f,
             py::arg("scale") = 32.0f,
             py::arg("status_tags") = "failures",
             py::arg("length_tag_key") = "",
             py::arg("outer") = "none",
             py::arg("interleaver") = "none")
        .def("codeword_bits", [](const ldpc_decoder& d) { return d.codeword_bits(); })
        .def("info_bits", [](const ldpc_decoder& d) { return d.info_bits(); })
        .def("codewords", [](const ldpc_decoder& d) { return d.codewords(); })
        .def("failed_codewords", [](const ldpc_decoder& d) { return d.failed_codewords(); });

    using gr::gpufec::pdu_decoder;
    py::class_<pdu_decoder, gr::block, gr::basic_block, std::shared_ptr<pdu_decoder>>(
        m, "pdu_decoder", R"doc(The PDU face of every frame family: message port "pdus" in (metadata,
f32vector / s8vector / u8vector of whole frames of soft values), "pdus" out (metadata plus
"frames", "iterations", "passed", "erased", and "soft_out" with soft_output; u8vector of decoded
bits). Parameters: family, options, device, max_batch, packed_output, scale, soft_output,
options_key (a metadata key whose string names options for that PDU's decoder: 5G NR code
blocks of every size through one block). See docs/platform.md.)doc")
        .def(py::init([](const std::string& family, const std::string& options, const std::string& device,
                         long long max_batch, bool packed_output, float scale, bool soft_output,
                         const std::string& options_key) {
                 return pdu_decoder::make(family, options, device, int_param(max_batch, "max_batch"),
                                          packed_output, scale, soft_output, options_key);
             }),
             py::arg("family"),
             py::arg("options") = "",
             py::arg("device") = "auto",
             py::arg("max_batch") = 0,
             py::arg("packed_output") = false,
             py::arg("scale") = 32.0f,
             py::arg("soft_output") = false,
             py::arg("options_key") = "")
        .def("backend", &pdu_decoder::backend)
        .def("input_per_frame", &pdu_decoder::input_per_frame)
        .def("pdus", &pdu_decoder::pdus)
        .def("dropped_pdus", &pdu_decoder::dropped_pdus)
        .def("failed_frames", &pdu_decoder::failed_frames)
        .def("nan_count", &pdu_decoder::nan_count)
        .def("set_option", &pdu_decoder::set_option, py::arg("key"), py::arg("value"),
             "changes max_iterations, early_termination, scaling, normalization or offset while running")
        .def("set_max_iterations", &pdu_decoder::set_max_iterations, py::arg("n"))
        .def("set_early_termination", &pdu_decoder::set_early_termination, py::arg("on"));

    // gr-fec FECAPI objects: make() returns gr-fec's own generic_decoder / generic_encoder
    // handles, which fec.extended_decoder, fec.async_decoder, fec.tagged_decoder and the BER
    // curve generator take
    using gr::gpufec::ccsds_tm_frame_check;
    py::class_<ccsds_tm_frame_check, gr::block, gr::basic_block, std::shared_ptr<ccsds_tm_frame_check>>(
        m, "ccsds_tm_frame_check", R"doc(The CCSDS telemetry receiver's last stage: decoded transfer frames
(in 0: the rs or ldpc decoder's packed information bytes) beside the codeblocks' decisions as
received (in 1, a bit a byte, from ccsds_tm_deframer), out as PDUs on message port "frames" with
metadata "cadu"; Reed-Solomon: "rs_corrected" (each codeword's corrected symbols, -1 where it
failed), "rs_ok"; LDPC: "ldpc_corrected" (information bits changed), "ldpc_ok" (from the
decoder's status tags); with fecf "fecf_ok"; and the tags of the frame. Failed frames are
dropped unless pass_failed; stats() counts all.)doc")
        .def(py::init(&ccsds_tm_frame_check::make), py::arg("code") = "ccsds:255:223", py::arg("interleave") = 5,
             py::arg("virtual_fill") = -1, py::arg("basis") = "default", py::arg("fecf") = false,
             py::arg("pass_failed") = false)
        .def("stats", [](const ccsds_tm_frame_check& b) {
            py::dict d;
            d["cadus"] = b.cadus();
            d["frames"] = b.frames();
            d["codeblock_failed"] = b.codeblock_failed();
            d["fecf_failed"] = b.fecf_failed();
            d["dropped"] = b.dropped();
            d["corrected"] = b.corrected();
            return d;
        }, "cadus (checked), frames (sent on), codeblock_failed, fecf_failed, dropped, corrected (symbols for "
           "Reed-Solomon, information bits for LDPC)");

    using gr::gpufec::ccsds_tm_sync;
    py::class_<ccsds_tm_sync, gr::block, gr::basic_block, std::shared_ptr<ccsds_tm_sync>>(
        m, "ccsds_tm_sync", R"doc(Frame synchronisation of a CCSDS telemetry stream on soft symbols
(float, positive = bit 1): each CADU's channel symbols out (frame_symbols() of them, from its
marker's first on), made upright. Searching, every symbol offset (which settles the pairing of
the code's symbols) and every ambiguity (the 180-degree one; with both_conventions the inner
code's inverted output sent inverted or not) is scored by its marker's normalised correlation and
the next CADU's; the best locks when both reach track_threshold and it stands acquire_sigmas
deviations above all offsets' scores. Locked, each marker is looked for within slip_range symbols
of where it is due (a slip is followed); a marker below track_threshold is a miss, and the CADU is
still given where it was due (flywheel); max_misses misses in a row lose the lock (logged).
Tags "tm_sync" (acquired, slipped (with the shift), flywheel), "tm_ambiguity" at each
acquisition; stats() counts all.)doc")
        .def(py::init(&ccsds_tm_sync::make), py::arg("code") = "ccsds:255:223", py::arg("interleave") = 5,
             py::arg("virtual_fill") = -1, py::arg("basis") = "default", py::arg("conv") = "default",
             py::arg("both_conventions") = true, py::arg("max_misses") = 3, py::arg("acquire_sigmas") = 6.0,
             py::arg("track_threshold") = 0.5, py::arg("slip_range") = 2)
        .def("frame_symbols", &ccsds_tm_sync::frame_symbols, "channel symbols a CADU")
        .def("locked", &ccsds_tm_sync::locked)
        .def("ambiguity", &ccsds_tm_sync::ambiguity)
        .def("stats", [](const ccsds_tm_sync& b) {
            py::dict d;
            d["frames"] = b.frames();
            d["acquisitions"] = b.acquisitions();
            d["losses"] = b.losses();
            d["slips"] = b.slips();
            d["flywheel"] = b.flywheel();
            d["skipped_symbols"] = b.skipped_symbols();
            d["ambiguity"] = b.ambiguity();
            return d;
        }, "frames, acquisitions, losses, slips, flywheel (CADUs given with a missed marker), skipped_symbols (in "
           "no CADU given), ambiguity (of the lock, or the last one)");

    using gr::gpufec::ccsds_tm_deframer;
    py::class_<ccsds_tm_deframer, gr::block, gr::basic_block, std::shared_ptr<ccsds_tm_deframer>>(
        m, "ccsds_tm_deframer", R"doc(Whole CADUs in, from their marker on: the decoded bits of the inner
code (dtype "byte", one bit per byte) or the channel's soft symbols of a stream without it (dtype
"float", positive = bit 1, quantised to int8 with `scale`). Out 0: each codeblock's code bits,
de-randomized, as int8 soft values for the rs or ldpc family (bits: +-127); out 1: their
decisions as received, a bit a byte (for ccsds_tm_frame_check's correction counts). Tags move to
the start of their CADU's codeblock on out 0. buffer_cadus: CADUs each output holds, at least
what the decoder after out 0 has in flight.)doc")
        .def(py::init(&ccsds_tm_deframer::make), py::arg("code") = "ccsds:255:223", py::arg("interleave") = 5,
             py::arg("virtual_fill") = -1, py::arg("basis") = "default", py::arg("dtype") = "byte",
             py::arg("scale") = 32.0f, py::arg("randomized") = true, py::arg("buffer_cadus") = 64)
        .def("cadu_bits", &ccsds_tm_deframer::cadu_bits)
        .def("codeblock_bits", &ccsds_tm_deframer::codeblock_bits);

    m.def("fec_decoder", &gr::gpufec::fec_decoder::make, py::arg("family"), py::arg("options") = "",
          py::arg("device") = "cpu", py::arg("scale") = 32.0f,
          R"doc(A frame family's decoder as a gr-fec generic_decoder (one frame per call: for gr-fec's
blocks; gr-gpufec's own blocks batch and use the GPU). Float soft input (positive = bit 1).)doc");
    m.def("fec_encoder", &gr::gpufec::fec_encoder::make, py::arg("family"), py::arg("options") = "",
          "A frame family's encoder as a gr-fec generic_encoder.");

    m.def("frame_families", &gpufec::frame_families, "Names of the registered frame families.");
    py::class_<gpufec::frame_encoder>(m, "frame_encoder",
                                      "The encoder of a family's code (the options as for frame_decoder): "
                                      "frame_encoder(family, options); encode(bits) takes whole frames of "
                                      "info_bits() bits (one per byte) and gives coded_bits() a frame.")
        .def(py::init([](const std::string& family, const std::string& options) {
                 return gpufec::make_frame_encoder(family, gpufec::parse_frame_options(options));
             }),
             py::arg("family"), py::arg("options") = "")
        .def("info_bits", &gpufec::frame_encoder::info_bits)
        .def("coded_bits", &gpufec::frame_encoder::coded_bits)
        .def("encode", [](gpufec::frame_encoder& e, py::array_t<uint8_t, py::array::c_style | py::array::forcecast> bits) {
            const size_t k = e.info_bits();
            if (bits.ndim() != 1 || bits.shape(0) == 0 || size_t(bits.shape(0)) % k)
                throw std::invalid_argument("encode: needs whole frames of " + std::to_string(k) + " bits, got " +
                                            std::to_string(bits.size()));
            const size_t frames = size_t(bits.shape(0)) / k;
            py::array_t<uint8_t> out(py::ssize_t(frames * e.coded_bits()));
            e.encode(bits.data(), frames, out.mutable_data());
            return out;
        }, py::arg("bits"));
    m.def(
        "frame_family_options",
        [](const std::string& family) {
            const auto& f = gpufec::frame_family_info(family);
            return f.schema.empty() ? f.options : gpufec::describe_options(f.schema);
        },
        py::arg("family"),
        "The options a frame family takes, with their defaults.");
    m.def(
        "frame_family_schema",
        [](const std::string& family) {
            // the family's options as declared: a dict per option, the common ones last
            static const char* kinds[] = { "int", "real", "bool", "choice", "text" };
            py::list out;
            const auto& schema = gpufec::frame_family_info(family).schema;
            for (const auto* list : { &schema, &gpufec::common_options() })
                for (const auto& o : *list) {
                    py::dict d;
                    d["name"] = o.name;
                    d["type"] = kinds[int(o.type)];
                    d["default"] = o.default_value;
                    d["lo"] = o.lo;
                    d["hi"] = o.hi;
                    d["choices"] = o.choices;
                    d["doc"] = o.doc;
                    out.append(d);
                }
            return out;
        },
        py::arg("family"),
        "The options a frame family declares: name, type (int, real, bool, choice, text), default "
        "(empty: it follows other options), lo, hi, choices, doc.");

    using gr::gpufec::ldpc_encoder;
    py::class_<ldpc_encoder, gr::block, gr::basic_block, std::shared_ptr<ldpc_encoder>>(
        m, "ldpc_encoder", "Systematic LDPC encoder for the codes ldpc_decoder decodes.")
        .def(py::init(&ldpc_encoder::make), py::arg("code") = "802.11n:1944:1/2", py::arg("outer") = "none",
             py::arg("interleaver") = "none")
        .def("code_description", &ldpc_encoder::code_description)
        .def("codeword_bits", &ldpc_encoder::codeword_bits)
        .def("info_bits", &ldpc_encoder::info_bits);

    m.def("ldpc_codes", &gpufec::ldpc_code::standard_ids, "Ids of the standard LDPC codes.");
    m.def("dvbs2_bit_interleaver", &gpufec::dvbs2_bit_interleaver, py::arg("n"), py::arg("rate"), py::arg("modulation"),
          "DVB-S2's bit interleaver (EN 302 307-1 5.3.3, EN 302 307-2) for a FECFRAME of n bits (64800, 16200), "
          "the nominal rate and the modulation (dvbs2_modulations(): 8psk, 16apsk, 32apsk and DVB-S2X's; qpsk, "
          "bpsk, none: an empty list): position p of the interleaved frame carries bit perm[p] of the frame as "
          "the LDPC encoder sends it.");
    m.def("dvbs2_modulations", &gpufec::dvbs2_modulations,
          "The modulations dvbs2_bit_interleaver and the ldpc family's interleaver option take, none first.");
    m.def(
        "ldpc_code_alist",
        [](const std::string& id) { return gpufec::ldpc_code::standard(id).to_alist(); },
        py::arg("code"),
        "The parity-check matrix of a standard code in alist format (for gr-fec, AFF3CT).");

    m.def("conv_presets", &gpufec::conv_code::preset_names, "Names of the code presets.");
    m.def(
        "conv_preset",
        [](const std::string& name) {
            const auto c = gpufec::conv_code::preset(name);
            std::vector<int> p(c.puncture.begin(), c.puncture.end());
            return py::make_tuple(c.k, c.polys, p);
        },
        py::arg("name"),
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
    m.def("version", &gpufec::version, "gr-gpufec's version");
    m.def("set_cpu_threads", &gpufec::set_cpu_threads, py::arg("threads"),
          "Size of the CPU thread pool that decoders share (0 = every core); applies to decoders "
          "made afterwards.");
    m.def("cpu_threads", &gpufec::cpu_threads, "Size of the shared CPU thread pool.");
    m.def(
        "union_bound_ber",
        [](const std::string& preset, double ebn0_db) {
            const auto c = gpufec::conv_code::preset(preset);
            return gpufec::union_bound_ber(gpufec::distance_spectrum(c, 8),
                                           double(c.period()) / c.kept_per_period(), ebn0_db);
        },
        py::arg("preset"),
        py::arg("ebn0_db"),
        "Union bound on the BER of an unpunctured preset code (BPSK, AWGN, soft ML).");
}
