#pragma once

#include "app/mpi/mpi_world.h"
#include "app/mpi/work_distributor.h"

#include "core/sim/baseline.h"
#include "core/sim/run_request.h"
#include "core/sweep/sweep_runner.h"

#include <atomic>
#include <functional>
#include <vector>

namespace rematlens {

// A list of runs spread over the ranks of an MPI job; rank 0 gets every result back, in the
// order asked. Results cross ranks as their records: runFromJson gives back all that the
// analyses read (outcome, clock, counts, failure).
class RunsAcrossRanks {
public:
    RunsAcrossRanks(const MpiWorld &world, const SweepRunner &runner, const Baseline &baseline, int threads);

    // Every rank calls this with the same requests; runs not finished come back Cancelled.
    std::vector<RunResult> run(const std::vector<RunRequest> &requests, const std::atomic<bool> *cancel,
                               const std::function<void(std::size_t)> &done);

private:
    const SweepRunner &m_runner;
    const Baseline &m_baseline;
    WorkDistributor m_distributor;
};

} // namespace rematlens
