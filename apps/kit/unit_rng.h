/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The random numbers of a simulation, per frame: frame f of point p of a run with seed s draws
 * its information bits and its noise from its own generator, seeded from (s, p, f). A frame's
 * data therefore do not depend on which call, thread, device or MPI rank simulates it, so the
 * counts of a run do not depend on how its frames were split (and frames can be made in
 * parallel). xoshiro256** (Blackman and Vigna), seeded through splitmix64. */
#ifndef INCLUDED_GPUFEC_APPS_UNIT_RNG_H
#define INCLUDED_GPUFEC_APPS_UNIT_RNG_H

#include <cstdint>
#include <limits>

namespace gpufec {
namespace app {

inline uint64_t splitmix64(uint64_t& x)
{
    uint64_t z = (x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

//! a small, fast generator (a standard UniformRandomBitGenerator: works with <random>)
class unit_rng
{
public:
    using result_type = uint64_t;
    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return std::numeric_limits<uint64_t>::max(); }

    //! the generator of frame `frame` of point `point` in a run seeded with `seed`
    unit_rng(uint64_t seed, uint64_t point, uint64_t frame)
    {
        uint64_t x = seed;
        x = splitmix64(x) ^ (point * 0xd1b54a32d192ed03ull);
        x = splitmix64(x) ^ (frame * 0x8cb92ba72f3d8dd7ull);
        for (auto& w : d_s)
            w = splitmix64(x);
    }

    result_type operator()()
    {
        const uint64_t out = rotl(d_s[1] * 5, 7) * 9, t = d_s[1] << 17;
        d_s[2] ^= d_s[0];
        d_s[3] ^= d_s[1];
        d_s[1] ^= d_s[2];
        d_s[0] ^= d_s[3];
        d_s[2] ^= t;
        d_s[3] = rotl(d_s[3], 45);
        return out;
    }

private:
    static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    uint64_t d_s[4];
};

//! n random bits, one per byte
inline void random_bits(uint8_t* out, size_t n, unit_rng& rng)
{
    for (size_t i = 0; i < n; i += 64) {
        uint64_t w = rng();
        const size_t end = n - i < 64 ? n : i + 64;
        for (size_t j = i; j < end; ++j, w >>= 1)
            out[j] = uint8_t(w & 1);
    }
}

} // namespace app
} // namespace gpufec

#endif
