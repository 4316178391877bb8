/*
 * Copyright 2026 gr-gpufec authors.
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* make_team(): the MPI team where built with MPI (GPUFEC_HAVE_MPI) and started by mpirun. */
#include "team.h"

#include <cstdlib>
#include <stdexcept>

#ifdef GPUFEC_HAVE_MPI
#define OMPI_SKIP_MPICXX 1 // the C API only (the C++ bindings are deprecated and not linked)
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#endif

namespace gpufec {
namespace app {

#ifdef GPUFEC_HAVE_MPI
namespace {

void check(int rc, const char* what)
{
    if (rc != MPI_SUCCESS)
        throw std::runtime_error(std::string("MPI: ") + what + " failed");
}

class mpi_team : public team
{
public:
    mpi_team(int& argc, char**& argv)
    {
        check(MPI_Init(&argc, &argv), "MPI_Init");
        MPI_Comm_rank(MPI_COMM_WORLD, &d_rank);
        MPI_Comm_size(MPI_COMM_WORLD, &d_size);
        check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, d_rank, MPI_INFO_NULL, &d_host),
              "MPI_Comm_split_type");
        MPI_Comm_rank(d_host, &d_local_rank);
        MPI_Comm_size(d_host, &d_local_size);
    }
    ~mpi_team() override
    {
        MPI_Comm_free(&d_host);
        MPI_Finalize();
    }
    int rank() const override { return d_rank; }
    int size() const override { return d_size; }
    int local_rank() const override { return d_local_rank; }
    int local_size() const override { return d_local_size; }
    std::string kind() const override { return "MPI, " + std::to_string(d_size) + " ranks"; }

    std::vector<uint64_t> allgather(uint64_t v) override
    {
        std::vector<uint64_t> all(static_cast<size_t>(d_size));
        check(MPI_Allgather(&v, 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD),
              "MPI_Allgather");
        return all;
    }
    std::vector<frame_result> allgatherv(const std::vector<frame_result>& mine,
                                         const std::vector<uint64_t>& counts) override
    {
        // as bytes: frame_result is three uint32
        std::vector<int> bytes(static_cast<size_t>(d_size)), at(static_cast<size_t>(d_size));
        uint64_t total = 0;
        for (int r = 0; r < d_size; ++r) {
            const uint64_t b = counts[size_t(r)] * sizeof(frame_result);
            if (b > uint64_t(INT32_MAX) || total * sizeof(frame_result) > uint64_t(INT32_MAX))
                throw std::runtime_error("MPI: a round is too large to gather; use a smaller --batch");
            bytes[size_t(r)] = int(b);
            at[size_t(r)] = int(total * sizeof(frame_result));
            total += counts[size_t(r)];
        }
        if (mine.size() != counts[size_t(d_rank)])
            throw std::logic_error("allgatherv: this rank's count does not match");
        std::vector<frame_result> all(total);
        check(MPI_Allgatherv(mine.data(), bytes[size_t(d_rank)], MPI_BYTE, all.data(), bytes.data(),
                             at.data(), MPI_BYTE, MPI_COMM_WORLD),
              "MPI_Allgatherv");
        return all;
    }
    int first_failure(bool ok) override
    {
        int mine = ok ? d_size : d_rank, first = d_size;
        check(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
        return first == d_size ? -1 : first;
    }

private:
    int d_rank = 0, d_size = 1, d_local_rank = 0, d_local_size = 1;
    MPI_Comm d_host = MPI_COMM_NULL;
};

bool launched_by_mpi()
{
    for (const char* v : { "OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE" })
        if (std::getenv(v))
            return true;
    return false;
}

} // namespace
#endif

bool mpi_built()
{
#ifdef GPUFEC_HAVE_MPI
    return true;
#else
    return false;
#endif
}

std::unique_ptr<team> make_team(int& argc, char**& argv)
{
#ifdef GPUFEC_HAVE_MPI
    if (launched_by_mpi())
        return std::make_unique<mpi_team>(argc, argv);
#endif
    (void)argc;
    (void)argv;
    return std::make_unique<team>();
}

} // namespace app
} // namespace gpufec
