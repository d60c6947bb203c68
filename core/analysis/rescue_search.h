#pragma once

#include "../sim/baseline.h"
#include "../sim/run_request.h"
#include "../sim/run_result.h"
#include "../sweep/sweep_runner.h"

#include <atomic>
#include <functional>
#include <vector>

namespace rematlens {

// One storage that, kept resident, makes the failing run pass.
struct Rescue {
    TensorId tensor = 0;   // the storage's root tensor
    Cost firstEvicted = 0; // clock of the failing run's first eviction of it
    RunResult result;      // of the run that keeps it
    double overhead = 0;   // that run's clock over the baseline compute
};

// A storage the failing run's policy evicted, tried kept resident.
struct RescueCandidate {
    TensorId tensor = 0;
    Cost firstEvicted = 0;      // clock of its first eviction
    std::size_t firstEvent = 0; // index of that eviction in the failing run's recording
};

struct RescueReport {
    RunResult original;          // the run as asked
    std::size_t candidates = 0;  // storages the failing run's policy evicted
    std::size_t tried = 0;       // runs finished (fewer than candidates when cancelled)
    std::vector<Rescue> rescues; // best first: lowest overhead, then tensor name
    bool interrupted = false;
};

// Tries keeping resident, one at a time and in parallel, every storage the policy evicted in a
// failing run (on top of what the request already keeps), and keeps those that make it pass.
class RescueSearch {
public:
    using Progress = std::function<void(std::size_t done, std::size_t total)>;
    // Each candidate's run as it finishes: the storage kept (its root tensor), the result, and
    // the rescue when the run passed (else null); one call at a time, in no particular order.
    using Tried = std::function<void(TensorId kept, const RunResult &result, const Rescue *rescue)>;

    // Runs the candidates' requests and returns their results in the same order (Cancelled for
    // runs that did not finish); calls done(k) as the k-th finishes. The runner's threads do it
    // unless a caller spreads it wider.
    using CandidateRunner = std::function<std::vector<RunResult>(const std::vector<RunRequest> &requests,
                                                                 const std::atomic<bool> *cancel,
                                                                 const std::function<void(std::size_t done)> &done)>;

    RescueSearch(const SweepRunner &runner, const Baseline &baseline) : m_runner(runner), m_baseline(baseline) {}
    void setCandidateRunner(CandidateRunner candidateRunner) { m_candidateRunner = std::move(candidateRunner); }
    // Candidates run from the failing run's shared past (RescueBranches) unless the policy
    // chooses at random or a candidate runner spreads them.
    RescueReport search(const RunRequest &request, const std::atomic<bool> *cancel, const Progress &progress,
                        const Tried &tried = {}) const;

private:
    std::vector<RunResult> runCandidates(const RunRequest &request, const std::vector<RescueCandidate> &candidates,
                                         const std::vector<std::size_t> &eventsAtWaypoint,
                                         const std::atomic<bool> *cancel, const Progress &progress,
                                         const Tried &tried) const;
    Rescue rescueOf(TensorId tensor, Cost firstEvicted, const RunResult &result) const;

    const SweepRunner &m_runner;
    const Baseline &m_baseline;
    CandidateRunner m_candidateRunner;
};

} // namespace rematlens
