#include "rescue_branches.h"

#include "../sim/replay.h"

#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include <memory>
#include <mutex>

namespace rematlens {

namespace {

// Branches waiting or running at once, beyond which the trunk runs the next one itself: each is
// a copy of the whole replay.
constexpr int kBranchesInFlightPerThread = 2;

} // namespace

std::vector<RunResult> RescueBranches::run(const std::vector<RescueBranchPoint> &points,
                                           const std::atomic<bool> *cancel, const Finished &finished) const
{
    std::vector<RunResult> results(points.size());
    for (RunResult &r : results)
        r.outcome = Outcome::Cancelled;
    std::mutex finishedMutex;
    std::size_t done = 0;
    std::atomic<int> inFlight = 0;
    const int maxInFlight = kBranchesInFlightPerThread * m_runner.threads();
    const auto finish = [&](std::size_t i, Replay &branch) {
        const RunConfig limits = m_runner.limited(m_failing, cancel);
        branch.continueUnder(m_failing.budget, limits.deadline, cancel);
        RunResult result = branch.run();
        const std::lock_guard<std::mutex> lock(finishedMutex);
        results[i] = std::move(result);
        if (results[i].outcome != Outcome::Cancelled && finished)
            finished(i, results[i], ++done);
    };

    tbb::task_arena arena(m_runner.threads());
    arena.execute([&] {
        tbb::task_group branches;
        const auto launch = [&](std::size_t i, std::unique_ptr<Replay> branch) {
            if (inFlight.load() >= maxInFlight) {
                finish(i, *branch);
                return;
            }
            ++inFlight;
            branches.run([&, i, shared = std::shared_ptr<Replay>(std::move(branch))] {
                finish(i, *shared);
                --inFlight;
            });
        };
        const RunConfig trunkConfig = m_runner.limited(m_failing, cancel);
        Replay trunk(m_runner.program(), trunkConfig);
        trunk.tallyScores();
        std::size_t next = 0;
        for (; next < points.size() && points[next].waypoint == RescueBranchPoint::kAtStart; ++next)
            launch(next, trunk.branchKeeping(points[next].tensor));
        std::size_t waypoint = 0;
        trunk.setWaypoints([&](Replay &at) {
            if (next < points.size() && points[next].waypoint == waypoint) {
                at.catchUpRegions(); // once here rather than in every branch
                for (; next < points.size() && points[next].waypoint == waypoint; ++next)
                    launch(next, at.branchKeeping(points[next].tensor));
            }
            ++waypoint;
            return next < points.size() && !(cancel && cancel->load(std::memory_order_relaxed));
        });
        trunk.run();
        branches.wait();
    });
    return results;
}

} // namespace rematlens
