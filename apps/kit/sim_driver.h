/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* Runs the points of an error-rate simulation on every decoder of a process (one per device)
 * and every rank of a team, with one stop rule.
 *
 * A point goes in rounds. A round hands consecutive frames to every rank and, inside a rank, to
 * every decoder (each its batch); the per-frame results are gathered on every rank in frame
 * order, and the counts take frames in that order until the stop rule is met. The counts are
 * therefore those of the shortest prefix of the frame sequence that meets the rule: the same
 * for any number of devices, ranks or batch size (frames a round made past that prefix are
 * dropped). */
#ifndef INCLUDED_GPUFEC_APPS_SIM_DRIVER_H
#define INCLUDED_GPUFEC_APPS_SIM_DRIVER_H

#include "error_stats.h"
#include "kits.h"
#include "team.h"
#include <functional>
#include <stdexcept>
#include <vector>

namespace gpufec {
namespace app {

//! thrown on every rank when another rank failed (that rank prints its own message)
struct other_rank_failed : std::runtime_error {
    explicit other_rank_failed(int rank)
        : std::runtime_error("rank " + std::to_string(rank) + " failed (its message is above)"), rank(rank)
    {
    }
    int rank;
};

class sim_driver
{
public:
    /*! kits: this process's decoders (all the same code); per_call: frames per decoder call
     *  (0: each kit's preferred). Collective: every rank constructs one. */
    sim_driver(std::vector<code_kit*> kits, team& t, uint64_t per_call);

    using progress_fn = std::function<void(const error_counts&)>;
    using halt_fn = std::function<bool()>;
    /*! runs one point (collective); every rank returns the same counts. `halt`, asked after
     *  every round, ends the point early when it says so on any rank (an interrupt, a time
     *  limit): the counts are then those of the rounds done, and interrupted() is true. */
    error_counts run_point(const sim_key& key, const channel_kit& ch, const stop_rule& rule,
                           const progress_fn& progress = {}, const halt_fn& halt = {});
    //! whether the last point was ended by `halt` before its stop rule was met
    bool interrupted() const { return d_interrupted; }
    //! frames one round takes from all ranks together
    uint64_t round_frames() const { return d_round; }

private:
    std::vector<code_kit*> d_kits;
    team& d_team;
    std::vector<uint64_t> d_per_call;  // per local kit
    std::vector<uint64_t> d_rank_caps; // frames per round, per rank
    uint64_t d_round = 0;
    bool d_interrupted = false;
    std::vector<frame_result> d_local;
};

} // namespace app
} // namespace gpufec

#endif
