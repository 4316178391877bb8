/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Families' options declared once (option_spec): checks before anything is made, the reader's
 * defaults and ranges, and the text --list-options prints. */
#include <gnuradio/gpufec/core/frame/frame_registry.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace gpufec {

option_spec opt_int(std::string name, std::string def, double lo, double hi, std::string doc)
{
    return { std::move(name), option_spec::kind::integer, std::move(def), lo, hi, {}, std::move(doc) };
}
option_spec opt_real(std::string name, std::string def, double lo, double hi, std::string doc)
{
    return { std::move(name), option_spec::kind::real, std::move(def), lo, hi, {}, std::move(doc) };
}
option_spec opt_bool(std::string name, std::string def, std::string doc)
{
    return { std::move(name), option_spec::kind::boolean, std::move(def), 0, 0, {}, std::move(doc) };
}
option_spec opt_choice(std::string name, std::string def, std::vector<std::string> choices, std::string doc,
                       std::vector<std::string> aliases)
{
    return { std::move(name), option_spec::kind::choice, std::move(def), 0, 0, std::move(choices), std::move(doc),
             std::move(aliases) };
}
option_spec opt_text(std::string name, std::string def, std::string doc)
{
    return { std::move(name), option_spec::kind::text, std::move(def), 0, 0, {}, std::move(doc) };
}

const std::vector<option_spec>& common_options()
{
    static const std::vector<option_spec> common = {
        opt_int("max_batch", "0", 0, max_batch_limit, "frames per call the decoder is sized for (0: the family's choice)"),
        opt_int("cpu_threads", "0", 0, 1024, "CPU path: worker threads (0: every core)"),
    };
    return common;
}

namespace {

std::string number(double v)
{
    if (v == std::floor(v) && std::fabs(v) < 1e18)
        return std::to_string((long long)v);
    std::ostringstream s;
    s << v;
    return s.str();
}

std::string allowed(const option_spec& o)
{
    switch (o.type) {
    case option_spec::kind::integer:
        return "integers " + number(o.lo) + ".." + number(o.hi);
    case option_spec::kind::real:
        return number(o.lo) + " to " + number(o.hi);
    case option_spec::kind::boolean:
        return "true, false";
    case option_spec::kind::choice: {
        std::string c;
        for (const auto& x : o.choices)
            c += (c.empty() ? "" : ", ") + x;
        return c;
    }
    default:
        return "text";
    }
}

//! why `value` is not valid for `o`, or ""
std::string invalid(const option_spec& o, const std::string& value)
{
    size_t used = 0;
    switch (o.type) {
    case option_spec::kind::integer: {
        long long v = 0;
        try {
            v = std::stoll(value, &used, 0);
        } catch (const std::exception&) {
            used = 0;
        }
        return used == value.size() && used > 0 && double(v) >= o.lo && double(v) <= o.hi ? "" : allowed(o);
    }
    case option_spec::kind::real: {
        double v = 0;
        try {
            v = std::stod(value, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        return used == value.size() && used > 0 && v >= o.lo && v <= o.hi ? "" : allowed(o);
    }
    case option_spec::kind::boolean: {
        std::string t = value;
        for (auto& c : t)
            c = char(std::tolower(static_cast<unsigned char>(c)));
        const char* ok[] = { "1", "0", "true", "false", "yes", "no", "on", "off" };
        return std::find(std::begin(ok), std::end(ok), t) != std::end(ok) ? "" : allowed(o);
    }
    case option_spec::kind::choice:
        return std::find(o.choices.begin(), o.choices.end(), value) != o.choices.end() ||
                       std::find(o.aliases.begin(), o.aliases.end(), value) != o.aliases.end()
                   ? ""
                   : allowed(o);
    default:
        return "";
    }
}

const option_spec* find_spec(const std::vector<option_spec>& schema, const std::string& key)
{
    for (const auto* list : { &schema, &common_options() })
        for (const auto& o : *list)
            if (o.name == key)
                return &o;
    return nullptr;
}

} // namespace

void check_options(const std::string& family, const std::vector<option_spec>& schema, const frame_options& options)
{
    for (const auto& [key, value] : options) {
        const option_spec* o = find_spec(schema, key);
        if (!o) {
            std::string known;
            for (const auto* list : { &schema, &common_options() })
                for (const auto& x : *list)
                    known += (known.empty() ? "" : ", ") + x.name;
            throw std::invalid_argument("options: '" + key + "' is not an option of " + family + " (allowed: " +
                                        known + ")");
        }
        const std::string why = invalid(*o, value);
        if (!why.empty())
            throw std::invalid_argument(key + ": '" + value + "' is not valid for " + family + " (allowed: " + why +
                                        ")");
    }
}

std::string describe_options(const std::vector<option_spec>& schema)
{
    std::string out;
    for (const auto* list : { &schema, &common_options() })
        for (const auto& o : *list)
            out += "  " + o.name + "=<" + allowed(o) + ">" +
                   (o.default_value.empty() ? std::string(" (default: as the line says)") : " (" + o.default_value + ")") + ": " +
                   o.doc + "\n";
    return out;
}

const option_spec& option_reader::spec(const std::string& key) const
{
    const option_spec* o = d_schema ? find_spec(*d_schema, key) : nullptr;
    if (!o)
        throw std::logic_error(d_family + ": option '" + key + "' is read but not declared");
    return *o;
}

std::string option_reader::get(const std::string& key) { return get(key, spec(key).default_value); }

namespace {
// an integer option's range; a choice of numbers (SCPPM's M) was checked against its choices
long long lo_of(const option_spec& o)
{
    return o.type == option_spec::kind::integer ? (long long)(o.lo) : std::numeric_limits<long long>::min();
}
long long hi_of(const option_spec& o)
{
    return o.type == option_spec::kind::integer ? (long long)(o.hi) : std::numeric_limits<long long>::max();
}
} // namespace

long long option_reader::get_int(const std::string& key)
{
    const option_spec& o = spec(key);
    return get_int(key, o.default_value.empty() ? 0 : std::stoll(o.default_value), lo_of(o), hi_of(o));
}

long long option_reader::get_int_or(const std::string& key, long long fallback)
{
    const option_spec& o = spec(key);
    return get_int(key, fallback, lo_of(o), hi_of(o));
}

double option_reader::get_float(const std::string& key)
{
    const option_spec& o = spec(key);
    return get_float(key, o.default_value.empty() ? 0.0 : std::stod(o.default_value), o.lo, o.hi);
}

double option_reader::get_float_or(const std::string& key, double fallback)
{
    const option_spec& o = spec(key);
    return get_float(key, fallback, o.lo, o.hi);
}

bool option_reader::get_bool(const std::string& key)
{
    const option_spec& o = spec(key);
    return get_bool(key, o.default_value == "true" || o.default_value == "1");
}

bool option_reader::get_bool_or(const std::string& key, bool fallback)
{
    (void)spec(key);
    return get_bool(key, fallback);
}

} // namespace gpufec
