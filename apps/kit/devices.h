/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The --devices option of the apps: which devices a process runs decoders on. */
#ifndef INCLUDED_GPUFEC_APPS_DEVICES_H
#define INCLUDED_GPUFEC_APPS_DEVICES_H

#include <gnuradio/gpufec/core/runtime/device.h>
#include <string>
#include <vector>

namespace gpufec {
namespace app {

/*! "auto" (GPU 0 if usable, else the CPU), "all" (every usable GPU; an error without one),
 *  or a comma-separated list of devices ("cuda:0,cuda:1", "cpu"). A device named twice runs
 *  two decoders on it. Throws std::invalid_argument naming what is wrong. */
std::vector<device_spec> parse_devices(const std::string& text);

/*! The devices of one process of a run of `local_size` processes on this host: with one
 *  process per host, all of them; with several, process `local_rank` takes the
 *  (local_rank mod n)-th, so `mpirun -n 8` on an 8-GPU host with --devices all gives each
 *  rank its own GPU (cuda:(rank mod GPUs)); "auto" does the same where there are GPUs. */
std::vector<device_spec> devices_for_process(const std::vector<device_spec>& devices,
                                             int local_rank,
                                             int local_size);

} // namespace app
} // namespace gpufec

#endif
