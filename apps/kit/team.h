/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* The processes of one run: one process, or the ranks of an MPI job (mpirun -n N gpufec_ber
 * ...) on one or many hosts. The simulation driver only needs these few collectives. */
#ifndef INCLUDED_GPUFEC_APPS_TEAM_H
#define INCLUDED_GPUFEC_APPS_TEAM_H

#include "kits.h"
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gpufec {
namespace app {

class team
{
public:
    virtual ~team() = default;
    virtual int rank() const { return 0; }
    virtual int size() const { return 1; }
    //! this rank among the ranks on its host (picks its GPU)
    virtual int local_rank() const { return 0; }
    virtual int local_size() const { return 1; }
    virtual std::string kind() const { return "one process"; }
    //! every rank's value, in rank order
    virtual std::vector<uint64_t> allgather(uint64_t v) { return { v }; }
    //! every rank's results concatenated in rank order; counts[r] = how many rank r gives
    virtual std::vector<frame_result> allgatherv(const std::vector<frame_result>& mine,
                                                 const std::vector<uint64_t>& /*counts*/)
    {
        return mine;
    }
    //! -1 when every rank says ok, else the lowest rank that does not (every rank must call)
    virtual int first_failure(bool ok) { return ok ? -1 : 0; }
};

/*! An MPI team when this program was built with MPI and started by an MPI launcher (mpirun
 *  sets OMPI_COMM_WORLD_SIZE, PMIX_RANK or PMI_RANK); one process otherwise, without touching
 *  MPI, so a plain start never waits on an MPI runtime. */
std::unique_ptr<team> make_team(int& argc, char**& argv);
//! whether this build can run under MPI
bool mpi_built();

} // namespace app
} // namespace gpufec

#endif
