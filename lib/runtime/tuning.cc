/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "runtime/tuning.h"

#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace gpufec {

std::string tuning_choice(const char* name, std::initializer_list<const char*> allowed, const char* fallback)
{
    const char* v = std::getenv(name);
    if (!v)
        return fallback;
    std::string list;
    for (const char* a : allowed) {
        if (std::strcmp(v, a) == 0)
            return v;
        list += (list.empty() ? "" : ", ") + std::string(a);
    }
    throw std::invalid_argument(std::string(name) + ": '" + v + "' is not valid (" + list + ")");
}

int tuning_int(const char* name, int lo, int hi, int fallback)
{
    const char* v = std::getenv(name);
    if (!v)
        return fallback;
    char* end = nullptr;
    const long x = std::strtol(v, &end, 10);
    if (end == v || *end != '\0' || x < lo || x > hi)
        throw std::invalid_argument(std::string(name) + ": '" + v + "' is not valid (" + std::to_string(lo) +
                                    " .. " + std::to_string(hi) + ")");
    return int(x);
}

} // namespace gpufec
