#pragma once

#include "../sim/run_config.h"
#include "../sim/run_result.h"
#include "../sweep/sweep_runner.h"

#include <atomic>
#include <functional>
#include <limits>
#include <vector>

namespace rematlens {

// Where a rescue candidate's run leaves the failing run: before its storage is first evicted.
struct RescueBranchPoint {
    static constexpr std::size_t kAtStart = std::numeric_limits<std::size_t>::max();
    TensorId tensor = 0;
    std::size_t waypoint = kAtStart; // the failing run's last waypoint before it, counted from 0
};

// Runs rescue candidates from the failing run's shared past. A run that keeps a storage resident
// is the failing run until the policy would first choose that storage (a choice that passes a
// storage over does not depend on it), so one replay of the failing run (the trunk) goes ahead,
// and at each candidate's branch point a copy of it continues keeping the candidate resident.
// Results equal full replays with the storage kept, field for field but the time taken.
class RescueBranches {
public:
    RescueBranches(const SweepRunner &runner, const RunConfig &failing) : m_runner(runner), m_failing(failing) {}

    // Called once per finished run, one call at a time: the point's index, its result and how
    // many have finished.
    using Finished = std::function<void(std::size_t index, const RunResult &result, std::size_t done)>;

    // points ordered by waypoint (kAtStart first). Results in the same order, Cancelled for runs
    // that did not finish.
    std::vector<RunResult> run(const std::vector<RescueBranchPoint> &points, const std::atomic<bool> *cancel,
                               const Finished &finished) const;

private:
    const SweepRunner &m_runner;
    RunConfig m_failing;
};

} // namespace rematlens
