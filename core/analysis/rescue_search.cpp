#include "rescue_search.h"

#include "rescue_branches.h"

#include "../sim/replay.h"

#include <algorithm>

namespace rematlens {

namespace {

// Every storage the policy evicted, once, in the order of its first eviction.
std::vector<RescueCandidate> evictedStorages(const RunRecording &recording, const Program &program)
{
    std::vector<RescueCandidate> candidates;
    std::vector<std::uint8_t> seen(program.storages.size(), 0);
    for (std::size_t i = 0; i < recording.events.size(); ++i) {
        const ReplayEvent &e = recording.events[i];
        if (e.kind != ReplayEvent::Kind::Evict)
            continue;
        const StorageId s = program.storageOf(e.tensor);
        if (!seen[s]) {
            seen[s] = 1;
            candidates.push_back({e.tensor, e.clock, i});
        }
    }
    return candidates;
}

// The failing run's last waypoint before each candidate's first eviction.
std::vector<RescueBranchPoint> branchPoints(const std::vector<RescueCandidate> &candidates,
                                            const std::vector<std::size_t> &eventsAtWaypoint)
{
    std::vector<RescueBranchPoint> points;
    for (const RescueCandidate &c : candidates) {
        const auto after = std::upper_bound(eventsAtWaypoint.begin(), eventsAtWaypoint.end(), c.firstEvent);
        points.push_back({c.tensor, after == eventsAtWaypoint.begin()
                                        ? RescueBranchPoint::kAtStart
                                        : static_cast<std::size_t>(after - eventsAtWaypoint.begin()) - 1});
    }
    return points;
}

} // namespace

std::vector<RunResult> RescueSearch::runCandidates(const RunRequest &request, const std::vector<RescueCandidate> &candidates,
                                                   const std::vector<std::size_t> &eventsAtWaypoint,
                                                   const std::atomic<bool> *cancel, const Progress &progress,
                                                   const Tried &tried) const
{
    const auto offer = [&](std::size_t i, const RunResult &result) {
        if (!tried || result.outcome == Outcome::Cancelled)
            return;
        if (result.outcome != Outcome::Pass)
            return tried(candidates[i].tensor, result, nullptr);
        const Rescue rescue = rescueOf(candidates[i].tensor, candidates[i].firstEvicted, result);
        tried(candidates[i].tensor, result, &rescue);
    };
    // Random choice reads the pool's size, which a kept storage changes from the start; runs on
    // other ranks replay in full.
    if (m_candidateRunner || request.config.policy.cost == CostTerm::Random) {
        std::vector<RunRequest> requests(candidates.size(), request);
        for (std::size_t i = 0; i < candidates.size(); ++i)
            requests[i].config.keepResident.push_back(candidates[i].tensor);
        const auto done = [&](std::size_t finished) {
            if (progress)
                progress(finished, requests.size());
        };
        const std::vector<RunResult> results =
            m_candidateRunner ? m_candidateRunner(requests, cancel, done) : m_runner.runAll(requests, cancel, done);
        for (std::size_t i = 0; i < results.size(); ++i)
            offer(i, results[i]);
        return results;
    }
    return RescueBranches(m_runner, request.config)
        .run(branchPoints(candidates, eventsAtWaypoint), cancel,
             [&](std::size_t i, const RunResult &result, std::size_t done) {
                 if (progress)
                     progress(done, candidates.size());
                 offer(i, result);
             });
}

Rescue RescueSearch::rescueOf(TensorId tensor, Cost firstEvicted, const RunResult &result) const
{
    const double overhead =
        m_baseline.compute > 0 ? static_cast<double>(result.clock) / static_cast<double>(m_baseline.compute) : 0.0;
    return Rescue{tensor, firstEvicted, result, overhead};
}

RescueReport RescueSearch::search(const RunRequest &request, const std::atomic<bool> *cancel,
                                  const Progress &progress, const Tried &tried) const
{
    const Program &program = m_runner.program();
    RescueReport report;
    RunRecording recording;
    RunConfig recorded = m_runner.limited(request.config, cancel);
    recorded.recording = &recording;
    std::vector<std::size_t> eventsAtWaypoint;
    Replay failing(program, recorded);
    failing.setWaypoints([&](Replay &) {
        eventsAtWaypoint.push_back(recording.events.size());
        return true;
    });
    report.original = failing.run();
    if (report.original.outcome != Outcome::OutOfMemory && report.original.outcome != Outcome::Thrash) {
        report.interrupted = report.original.outcome == Outcome::Cancelled;
        return report;
    }
    const std::vector<RescueCandidate> candidates = evictedStorages(recording, program);
    report.candidates = candidates.size();
    const std::vector<RunResult> results = runCandidates(request, candidates, eventsAtWaypoint, cancel, progress, tried);
    for (std::size_t i = 0; i < results.size(); ++i) {
        const RunResult &result = results[i];
        if (result.outcome == Outcome::Cancelled)
            continue;
        ++report.tried;
        if (result.outcome == Outcome::Pass)
            report.rescues.push_back(rescueOf(candidates[i].tensor, candidates[i].firstEvicted, result));
    }
    report.interrupted = report.tried < candidates.size();
    std::sort(report.rescues.begin(), report.rescues.end(), [&](const Rescue &x, const Rescue &y) {
        if (x.result.clock != y.result.clock)
            return x.result.clock < y.result.clock;
        return program.tensors[x.tensor].name < program.tensors[y.tensor].name;
    });
    return report;
}

} // namespace rematlens
