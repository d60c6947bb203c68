#pragma once

#include "../sim/region_book.h"
#include "../sim/run_request.h"
#include "../sim/run_result.h"
#include "../trace/program.h"

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace rematlens {

// Runs many budgets of one program in parallel on oneTBB. The program is shared read-only;
// each run owns its state, so results do not depend on the thread count or the order. A request
// whose budget lies in the interval of a finished run of the same configuration takes that
// run's result (SharedIntervals) instead of replaying.
class SweepRunner {
public:
    using ResultHandler = std::function<void(std::size_t index, const RunResult &result)>;

    // threads <= 0: as many as the machine has.
    SweepRunner(std::shared_ptr<const Program> program, int threads);

    // Each run ends as Timeout past this wall time (unresolved, neither pass nor failure).
    void setWallLimit(std::optional<double> seconds) { m_wallLimitSeconds = seconds; }

    // Runs every request; onResult is called once per finished run, one call at a time, as runs
    // finish. When *cancel turns true no new run starts and runs in flight end as Cancelled.
    void run(const std::vector<RunRequest> &requests, const std::atomic<bool> *cancel,
             const ResultHandler &onResult) const;

    // Every request's result, in request order; runs never finished come back Cancelled.
    // finished(n) is called after each of the n runs that finished, one call at a time.
    std::vector<RunResult> runAll(const std::vector<RunRequest> &requests, const std::atomic<bool> *cancel,
                                  const std::function<void(std::size_t finished)> &finished) const;

    // config with the cancel flag and, under a wall limit, the deadline of a run starting now.
    RunConfig limited(const RunConfig &config, const std::atomic<bool> *cancel) const;

    // One run on the calling thread, with the same wall limit.
    RunResult runOne(const RunConfig &config, const std::atomic<bool> *cancel = nullptr) const;

    const Program &program() const { return *m_program; }
    int threads() const { return m_threads; }

private:
    // spare: region buffers of this thread's previous replay, reused and then refilled.
    RunResult replay(const RunConfig &config, const std::atomic<bool> *cancel, RegionBook::Buffers &spare) const;

    std::shared_ptr<const Program> m_program;
    int m_threads;
    std::optional<double> m_wallLimitSeconds;
};

} // namespace rematlens
