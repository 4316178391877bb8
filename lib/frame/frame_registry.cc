/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <gnuradio/gpufec/core/frame/frame_registry.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <mutex>
#include <sstream>
#include <stdexcept>

namespace gpufec {

namespace {

std::string trim(const std::string& s)
{
    size_t a = 0, b = s.size();
    while (a < b && std::isspace(static_cast<unsigned char>(s[a])))
        ++a;
    while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1])))
        --b;
    return s.substr(a, b - a);
}

struct registry {
    std::mutex mutex;
    std::map<std::string, frame_family> families;
};

registry& the_registry()
{
    static registry r; // constructed on first use, so registration order does not matter
    return r;
}

} // namespace

frame_options parse_frame_options(const std::string& text)
{
    // key=value items separated by commas; a value in double quotes may hold commas, and \" and
    // \\ inside the quotes stand for " and \ (a file path with a comma: file="/a,b.txt")
    frame_options out;
    auto add = [&](const std::string& item, const std::string& value, bool quoted) {
        if (trim(item).empty() && !quoted)
            return;
        const auto eq = item.find('=');
        if (eq == std::string::npos)
            throw std::invalid_argument("options: '" + trim(item) + "' is not key=value");
        const std::string key = trim(item.substr(0, eq));
        if (key.empty())
            throw std::invalid_argument("options: '" + trim(item) + "' has no key");
        if (!out.emplace(key, quoted ? value : trim(item.substr(eq + 1))).second)
            throw std::invalid_argument("options: '" + key + "' is given twice");
    };
    std::string item, value;
    bool quoted = false;
    for (size_t i = 0; i <= text.size(); ++i) {
        const char c = i < text.size() ? text[i] : ',';
        if (c == '"' && !quoted && trim(item).size() && trim(item).back() == '=') {
            // a quoted value: up to the closing quote
            std::string v;
            size_t j = i + 1;
            for (; j < text.size() && text[j] != '"'; ++j) {
                if (text[j] == '\\' && j + 1 < text.size() && (text[j + 1] == '"' || text[j + 1] == '\\'))
                    ++j;
                v += text[j];
            }
            if (j >= text.size())
                throw std::invalid_argument("options: the quoted value of '" + trim(item) + "' has no closing quote");
            const size_t after = text.find_first_not_of(" \t", j + 1);
            if (after != std::string::npos && text[after] != ',')
                throw std::invalid_argument("options: text after the quoted value of '" + trim(item) + "'");
            item = trim(item);
            value = v;
            quoted = true;
            i = after == std::string::npos ? text.size() - 1 : after - 1;
            continue;
        }
        if (c == ',') {
            add(item, value, quoted);
            item.clear();
            value.clear();
            quoted = false;
            continue;
        }
        item += c;
    }
    return out;
}

std::string quote_frame_option(const std::string& value)
{
    if (value.find_first_of(",\"\\") == std::string::npos && trim(value) == value)
        return value;
    std::string q = "\"";
    for (char c : value) {
        if (c == '"' || c == '\\')
            q += '\\';
        q += c;
    }
    return q + "\"";
}

option_reader::option_reader(const std::string& family, const frame_options& options,
                             const std::vector<option_spec>* schema)
    : d_family(family), d_opts(options), d_schema(schema && !schema->empty() ? schema : nullptr)
{
}

std::string option_reader::get(const std::string& key, const std::string& fallback)
{
    d_known.insert(key);
    const auto it = d_opts.find(key);
    return it == d_opts.end() ? fallback : it->second;
}

long long option_reader::get_int(const std::string& key, long long fallback, long long lo, long long hi)
{
    const std::string text = get(key, "");
    if (text.empty())
        return fallback;
    size_t used = 0;
    long long v = 0;
    try {
        v = std::stoll(text, &used, 0);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || v < lo || v > hi)
        throw std::invalid_argument(key + ": '" + text + "' is not valid for " + d_family +
                                    " (allowed: integers " + std::to_string(lo) + ".." +
                                    std::to_string(hi) + ")");
    return v;
}

double option_reader::get_float(const std::string& key, double fallback, double lo, double hi)
{
    const std::string text = get(key, "");
    if (text.empty())
        return fallback;
    size_t used = 0;
    double v = 0;
    try {
        v = std::stod(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || !(v >= lo && v <= hi)) {
        std::ostringstream s;
        s << key << ": '" << text << "' is not valid for " << d_family << " (allowed: " << lo
          << " to " << hi << ")";
        throw std::invalid_argument(s.str());
    }
    return v;
}

bool option_reader::get_bool(const std::string& key, bool fallback)
{
    std::string text = get(key, "");
    for (auto& c : text)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (text.empty())
        return fallback;
    if (text == "1" || text == "true" || text == "yes" || text == "on")
        return true;
    if (text == "0" || text == "false" || text == "no" || text == "off")
        return false;
    throw std::invalid_argument(key + ": '" + text + "' is not valid (allowed: true, false)");
}

void option_reader::finish() const
{
    for (const auto& kv : d_opts)
        if (!d_known.count(kv.first) && d_schema &&
            std::any_of(d_schema->begin(), d_schema->end(), [&](const option_spec& o) { return o.name == kv.first; }))
            throw std::invalid_argument(kv.first + ": does not apply to " + d_family + " with these options (" +
                                        kv.first + "=" + kv.second + " given)");
    for (const auto& kv : d_opts)
        if (!d_known.count(kv.first)) {
            std::string known;
            for (const auto& k : d_known)
                known += (known.empty() ? "" : ", ") + k;
            throw std::invalid_argument("options: '" + kv.first + "' is not an option of " +
                                        d_family + " (allowed: " + known + ")");
        }
}

bool register_frame_family(frame_family family)
{
    auto& r = the_registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    const std::string name = family.name;
    if (!r.families.emplace(name, std::move(family)).second)
        throw std::logic_error("frame family '" + name + "' registered twice");
    return true;
}

std::vector<std::string> frame_families()
{
    auto& r = the_registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    std::vector<std::string> out;
    for (const auto& kv : r.families)
        out.push_back(kv.first);
    return out;
}

const frame_family& frame_family_info(const std::string& name)
{
    auto& r = the_registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    const auto it = r.families.find(name);
    if (it == r.families.end()) {
        std::string names;
        for (const auto& kv : r.families)
            names += (names.empty() ? "" : ", ") + kv.first;
        throw std::invalid_argument("family: '" + name + "' is not known (allowed: " + names + ")");
    }
    return it->second; // families are never removed
}

std::unique_ptr<batch_decoder> make_frame_decoder(const std::string& family,
                                                  const frame_options& options,
                                                  const device_spec& device)
{
    const frame_family& f = frame_family_info(family);
    if (!f.schema.empty()) // unknown options and bad values are refused before anything is made
        check_options(family, f.schema, options);
    option_reader reader(family, options, &f.schema);
    frame_common common;
    common.max_batch = int(reader.get_int("max_batch", 0, 0, max_batch_limit));
    common.cpu_threads = int(reader.get_int("cpu_threads", 0, 0, 1024));
    auto dec = f.make(reader, common, device);
    reader.finish();
    return dec;
}

} // namespace gpufec

namespace gpufec {

std::unique_ptr<frame_encoder> make_frame_encoder(const std::string& family,
                                                  const frame_options& options)
{
    const frame_family& f = frame_family_info(family);
    if (!f.make_encoder)
        throw std::invalid_argument("family: '" + family + "' has no encoder");
    if (!f.schema.empty())
        check_options(family, f.schema, options);
    option_reader reader(family, options, &f.schema);
    return f.make_encoder(reader);
}

} // namespace gpufec
