#include "rescue_search.h"

#include "../sim/replay.h"

#include <algorithm>

namespace rematlens {

namespace {

struct Candidate {
    TensorId tensor;
    Cost firstEvicted;
};

// Every storage the policy evicted, once, in the order of its first eviction.
std::vector<Candidate> evictedStorages(const RunRecording &recording, const Program &program)
{
    std::vector<Candidate> candidates;
    std::vector<std::uint8_t> seen(program.storages.size(), 0);
    for (const ReplayEvent &e : recording.events) {
        if (e.kind != ReplayEvent::Kind::Evict)
            continue;
        const StorageId s = program.storageOf(e.tensor);
        if (!seen[s]) {
            seen[s] = 1;
            candidates.push_back({e.tensor, e.clock});
        }
    }
    return candidates;
}

} // namespace

std::vector<RunResult> RescueSearch::runCandidates(const std::vector<RunRequest> &requests,
                                                   const std::atomic<bool> *cancel, const Progress &progress) const
{
    const auto done = [&](std::size_t finished) {
        if (progress)
            progress(finished, requests.size());
    };
    if (m_candidateRunner)
        return m_candidateRunner(requests, cancel, done);
    return m_runner.runAll(requests, cancel, done);
}

RescueReport RescueSearch::search(const RunRequest &request, const std::atomic<bool> *cancel,
                                  const Progress &progress) const
{
    const Program &program = m_runner.program();
    RescueReport report;
    RunRecording recording;
    RunConfig recorded = request.config;
    recorded.recording = &recording;
    report.original = m_runner.runOne(recorded, cancel);
    if (report.original.outcome != Outcome::OutOfMemory && report.original.outcome != Outcome::Thrash) {
        report.interrupted = report.original.outcome == Outcome::Cancelled;
        return report;
    }
    const std::vector<Candidate> candidates = evictedStorages(recording, program);
    report.candidates = candidates.size();
    std::vector<RunRequest> requests(candidates.size(), request);
    for (std::size_t i = 0; i < candidates.size(); ++i)
        requests[i].config.keepResident.push_back(candidates[i].tensor);
    const std::vector<RunResult> results = runCandidates(requests, cancel, progress);
    for (std::size_t i = 0; i < results.size(); ++i) {
        const RunResult &result = results[i];
        if (result.outcome == Outcome::Cancelled)
            continue;
        ++report.tried;
        if (result.outcome == Outcome::Pass)
            report.rescues.push_back(Rescue{candidates[i].tensor, candidates[i].firstEvicted, result,
                                            m_baseline.compute > 0 ? static_cast<double>(result.clock) /
                                                                         static_cast<double>(m_baseline.compute)
                                                                   : 0.0});
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
