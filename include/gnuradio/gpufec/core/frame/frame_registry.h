/* -*- c++ -*- */
/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Frame families by name. A family registers a factory once (one line, in its own folder);
 * the generic block, the apps and the conformance tests then build its decoders from a name
 * and "key=value" options, without knowing the family. */
#ifndef INCLUDED_GPUFEC_CORE_FRAME_REGISTRY_H
#define INCLUDED_GPUFEC_CORE_FRAME_REGISTRY_H

#include <gnuradio/gpufec/core/runtime/device.h>
#include <gnuradio/gpufec/core/frame/batch_decoder.h>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace gpufec {

using frame_options = std::map<std::string, std::string>;

/*! "code=802.11n:648:1/2, max_iterations=20" -> {code: ..., max_iterations: 20}. Spaces around
 *  keys, values and '=' are ignored; a value in double quotes may hold commas (\" and \\
 *  inside the quotes stand for " and \): file="/data/a,b.txt". A key given twice or an item
 *  without '=' throws std::invalid_argument. */
frame_options parse_frame_options(const std::string& text);
//! a value as an options string holds it: quoted where it has a comma, a quote or a backslash
std::string quote_frame_option(const std::string& value);

/*! Reads a family's options and names the option in every error. finish() throws for keys
 *  the family did not read, listing the ones it knows. */
/*! One option of a family, declared once: the reader takes its default and range from it,
 *  options are checked against it before anything is made, and --list-options, the Python
 *  face's tests, the GRC files' tests and the docs' tables read it. */
struct option_spec {
    enum class kind { integer, real, boolean, choice, text };
    std::string name;
    kind type = kind::text;
    std::string default_value; //!< as an options string writes it; "" where it follows other options (the doc says)
    double lo = 0, hi = 0;     //!< integer, real: the range
    std::vector<std::string> choices; //!< choice: the values (first names; aliases below are taken too)
    std::string doc;                  //!< one line
    std::vector<std::string> aliases = {}; //!< choice: other spellings accepted
};
option_spec opt_int(std::string name, std::string def, double lo, double hi, std::string doc);
option_spec opt_real(std::string name, std::string def, double lo, double hi, std::string doc);
option_spec opt_bool(std::string name, std::string def, std::string doc);
option_spec opt_choice(std::string name, std::string def, std::vector<std::string> choices, std::string doc,
                       std::vector<std::string> aliases = {});
option_spec opt_text(std::string name, std::string def, std::string doc);
//! the options every family takes (the registry reads them): max_batch, cpu_threads
const std::vector<option_spec>& common_options();
/*! Checks options against a family's schema (and the common options) before anything is made:
 *  an unknown name, or a value of the wrong type, outside the range or not among the choices,
 *  throws std::invalid_argument naming it and what is allowed */
void check_options(const std::string& family, const std::vector<option_spec>& schema, const frame_options& options);
//! the schema as text, a line an option: "name=<allowed> (default): doc"
std::string describe_options(const std::vector<option_spec>& schema);

class option_reader
{
public:
    /*! schema: the family's declared options, where it has them; the get* calls without a
     *  fallback take the default and the range from it */
    option_reader(const std::string& family, const frame_options& options,
                  const std::vector<option_spec>* schema = nullptr);
    std::string get(const std::string& key, const std::string& fallback);
    long long get_int(const std::string& key, long long fallback, long long lo, long long hi);
    double get_float(const std::string& key, double fallback, double lo, double hi);
    bool get_bool(const std::string& key, bool fallback);
    // from the schema: its default (or, where it has none, `fallback`) and its range
    std::string get(const std::string& key);
    long long get_int(const std::string& key);
    long long get_int_or(const std::string& key, long long fallback);
    double get_float(const std::string& key);
    double get_float_or(const std::string& key, double fallback);
    bool get_bool(const std::string& key);
    bool get_bool_or(const std::string& key, bool fallback);
    bool given(const std::string& key) const { return d_opts.count(key) > 0; }
    void finish() const;

private:
    const option_spec& spec(const std::string& key) const;
    std::string d_family;
    frame_options d_opts;
    std::set<std::string> d_known;
    const std::vector<option_spec>* d_schema = nullptr;
};

//! Options every family understands (the registry reads them before the factory runs).
struct frame_common {
    int max_batch = 0;   //!< frames per call the decoder is sized for; 0 = the family's choice
    int cpu_threads = 0; //!< CPU path: worker threads, 0 = every core
};

using frame_factory = std::function<std::unique_ptr<batch_decoder>(
    option_reader& options, const frame_common& common, const device_spec& device)>;

//! The encoder of a family: info_bits() bits in, coded_bits() out, one bit per byte.
class frame_encoder
{
public:
    virtual ~frame_encoder() = default;
    virtual size_t info_bits() const = 0;
    virtual size_t coded_bits() const = 0;
    virtual void encode(const uint8_t* bits, size_t frames, uint8_t* coded) = 0;
};
//! reads the options that define the code (the decoder-only ones are ignored)
using frame_encoder_factory = std::function<std::unique_ptr<frame_encoder>(option_reader& options)>;

struct frame_family {
    std::string name;
    std::string summary; //!< one line
    std::string options; //!< the options in words; empty where the schema below declares them
    frame_factory make;
    frame_encoder_factory make_encoder;
    /*! what its decoder reads, as the apps' channels name it: "bpsk-awgn" (soft values of code
     *  bits), "poisson-ppm" (photon counts of PPM slots), "bsid" (the bits of an insertion/
     *  deletion channel, frames of varying length) */
    std::string channel = "bpsk-awgn";
    //! the options the apps use when none are given (empty: the family's defaults)
    std::string app_options = "";
    //! its options, declared once (empty: only the `options` text describes them)
    std::vector<option_spec> schema = {};
    /*! where the family has one: the ML union bound on the BER of the code the options describe,
     *  as a function of the code rate and Eb/N0 in dB (an empty function where there is none) */
    std::function<std::function<double(double rate, double ebn0_db)>(option_reader& options)> union_bound = {};
    //! option sets the conformance suite runs (lib/frame/qa_frame_conformance.cc), one test set each
    std::vector<std::string> conformance = {};
};

//! Adds a family; returns true (so it can initialise a static). A second name throws.
bool register_frame_family(frame_family family);
std::vector<std::string> frame_families();
const frame_family& frame_family_info(const std::string& name);

/*! Builds a decoder of a registered family. Unknown families, unknown options and bad values
 *  throw std::invalid_argument naming them; an explicit device that cannot be used throws
 *  std::runtime_error (as resolve_backend). max_batch bounds: 1..max_batch_limit frames. */
std::unique_ptr<batch_decoder> make_frame_decoder(const std::string& family,
                                                  const frame_options& options,
                                                  const device_spec& device = device_spec{});

//! The encoder of the code that the same options describe (for tests, simulations, gr-fec).
std::unique_ptr<frame_encoder> make_frame_encoder(const std::string& family,
                                                  const frame_options& options);

//! the largest max_batch any decoder accepts (frames per call; memory is sized for it)
constexpr int max_batch_limit = 1 << 20;

} // namespace gpufec

//! One line in a family's own source file registers it.
#define GPUFEC_REGISTER_FRAME_FAMILY(ident, ...)                                       \
    static const bool gpufec_frame_family_registered_##ident =                          \
        ::gpufec::register_frame_family(::gpufec::frame_family{ __VA_ARGS__ })

#endif
