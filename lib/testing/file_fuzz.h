/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* What the code-file fuzz tests share: mutations of a text (bytes flipped, tokens inserted,
 * pieces deleted, duplicated or cut off) and the check that a message is printable. */
#ifndef INCLUDED_GPUFEC_TESTING_FILE_FUZZ_H
#define INCLUDED_GPUFEC_TESTING_FILE_FUZZ_H

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>

namespace gpufec::test {

//! 1 to 4 random edits of `t`; `tokens` are inserted whole (numbers, separators, odd bytes)
template <size_t T>
std::string mutate(std::string t, std::mt19937& rng, const char* const (&tokens)[T])
{
    const int edits = 1 + int(rng() % 4);
    for (int e = 0; e < edits && !t.empty(); ++e) {
        const size_t at = rng() % t.size();
        switch (rng() % 5) {
        case 0:
            t[at] = char(rng() % 256);
            break;
        case 1:
            t.insert(at, tokens[rng() % T]);
            break;
        case 2:
            t.erase(at, 1 + rng() % 8);
            break;
        case 3: { // duplicate a line-sized piece
            const size_t len = std::min<size_t>(t.size() - at, 1 + rng() % 64);
            t.insert(rng() % t.size(), t.substr(at, len));
            break;
        }
        default:
            t.resize(at);
        }
    }
    return t;
}

//! a message a user can read: not empty, printable ASCII only (odd bytes escaped as \xNN)
inline bool readable_message(const std::string& s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
}

//! GPUFEC_FUZZ_ITERATIONS, else `fallback` (scripts/sanitize.sh runs many under ASan)
inline int fuzz_iterations(int fallback)
{
    const char* env = std::getenv("GPUFEC_FUZZ_ITERATIONS");
    return env ? std::max(1, std::atoi(env)) : fallback;
}

} // namespace gpufec::test

#endif
