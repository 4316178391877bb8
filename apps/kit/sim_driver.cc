/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "sim_driver.h"

#include <algorithm>
#include <exception>
#include <numeric>
#include <thread>

namespace gpufec {
namespace app {

sim_driver::sim_driver(std::vector<code_kit*> kits, team& t, uint64_t per_call)
    : d_kits(std::move(kits)), d_team(t)
{
    if (d_kits.empty())
        throw std::invalid_argument("sim_driver: no decoder");
    for (auto* k : d_kits) {
        if (k->info_bits_per_frame() != d_kits[0]->info_bits_per_frame())
            throw std::invalid_argument("sim_driver: the decoders are not for the same code");
        d_per_call.push_back(per_call ? per_call : std::max<uint64_t>(1, k->preferred_frames()));
    }
    d_rank_caps = d_team.allgather(std::accumulate(d_per_call.begin(), d_per_call.end(), uint64_t(0)));
    d_round = std::accumulate(d_rank_caps.begin(), d_rank_caps.end(), uint64_t(0));
}

error_counts sim_driver::run_point(const sim_key& key, const channel_kit& ch, const stop_rule& rule,
                                   const progress_fn& progress, const halt_fn& halt)
{
    d_interrupted = false;
    const uint64_t bpf = d_kits[0]->info_bits_per_frame();
    const uint64_t sb = d_kits[0]->symbol_bits(), spf = sb > 1 ? (bpf + sb - 1) / sb : 0; // symbols a frame
    const size_t me = size_t(d_team.rank());
    error_counts c;
    uint64_t next = 0; // the first frame of the next round
    bool stop = rule.done(c);
    while (!stop) {
        const uint64_t allowed = rule.frames_allowed(c, d_round, bpf);
        if (allowed == 0)
            break; // the next whole frame would pass --max-frames / --max-bits
        // the round's frames, in order: rank by rank, each its cap until `allowed` runs out
        std::vector<uint64_t> shares(d_rank_caps.size());
        uint64_t left = allowed, my_first = next;
        for (size_t r = 0; r < shares.size(); ++r) {
            shares[r] = std::min(left, d_rank_caps[r]);
            left -= shares[r];
            if (r < me)
                my_first += shares[r];
        }
        // this rank's share, decoder by decoder, each on its own thread
        d_local.assign(shares[me], frame_result{});
        std::vector<std::string> errors(d_kits.size());
        std::vector<std::thread> threads;
        uint64_t at = 0;
        for (size_t w = 0; w < d_kits.size() && at < shares[me]; ++w) {
            const uint64_t n = std::min(d_per_call[w], shares[me] - at);
            auto job = [&, w, at, n] {
                try {
                    d_kits[w]->simulate(key, my_first + at, n, ch, d_local.data() + at);
                } catch (const std::exception& e) {
                    errors[w] = e.what();
                } catch (...) {
                    errors[w] = "unknown error";
                }
            };
            if (at + n < shares[me])
                threads.emplace_back(job);
            else
                job(); // the last on this thread
            at += n;
        }
        for (auto& th : threads)
            th.join();
        std::string mine;
        for (const auto& e : errors)
            if (!e.empty())
                mine = e;
        const int failed = d_team.first_failure(mine.empty());
        if (!mine.empty())
            throw std::runtime_error(mine);
        if (failed >= 0)
            throw other_rank_failed(failed);

        // every rank scans the same results in frame order
        const std::vector<frame_result> all = d_team.allgatherv(d_local, shares);
        for (const auto& r : all) {
            if (rule.done(c) || rule.frames_allowed(c, 1, bpf) == 0) {
                stop = true;
                break;
            }
            c.frames++;
            c.bits += bpf;
            c.bit_errors += r.bit_errors;
            c.frame_errors += r.bit_errors > 0;
            c.iterations += r.iterations;
            c.symbols += spf;
            c.symbol_errors += r.symbol_errors;
        }
        next += allowed;
        stop = stop || rule.done(c);
        if (progress)
            progress(c);
        if (halt && !stop) { // every rank votes, so all stop after the same round
            const auto votes = d_team.allgather(halt() ? 1 : 0);
            if (std::any_of(votes.begin(), votes.end(), [](uint64_t v) { return v != 0; }))
                stop = d_interrupted = true;
        }
    }
    return c;
}

} // namespace app
} // namespace gpufec
