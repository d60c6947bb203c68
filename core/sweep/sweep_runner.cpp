#include "sweep_runner.h"

#include "../sim/replay.h"
#include "shared_intervals.h"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <mutex>

namespace rematlens {

SweepRunner::SweepRunner(std::shared_ptr<const Program> program, int threads)
    : m_program(std::move(program)), m_threads(threads > 0 ? threads : tbb::this_task_arena::max_concurrency())
{
}

RunResult SweepRunner::runOne(const RunConfig &config, const std::atomic<bool> *cancel) const
{
    RegionBook::Buffers none;
    return replay(config, cancel, none);
}

RunConfig SweepRunner::limited(const RunConfig &config, const std::atomic<bool> *cancel) const
{
    RunConfig c = config;
    c.cancel = cancel;
    if (m_wallLimitSeconds)
        c.deadline = std::chrono::steady_clock::now()
                     + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                         std::chrono::duration<double>(*m_wallLimitSeconds));
    return c;
}

RunResult SweepRunner::replay(const RunConfig &config, const std::atomic<bool> *cancel,
                              RegionBook::Buffers &spare) const
{
    Replay run(*m_program, limited(config, cancel), std::move(spare));
    RunResult result = run.run();
    spare = run.releaseRegionBuffers();
    return result;
}

void SweepRunner::run(const std::vector<RunRequest> &requests, const std::atomic<bool> *cancel,
                      const ResultHandler &onResult) const
{
    std::mutex handlerMutex;
    SharedIntervals finished(requests);
    tbb::enumerable_thread_specific<RegionBook::Buffers> spares; // consecutive replays of a thread reuse them
    tbb::task_arena arena(m_threads);
    arena.execute([&] {
        // Grain 1: runs differ in cost by orders of magnitude, so let TBB balance them one by one.
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, requests.size(), 1),
                          [&](const tbb::blocked_range<std::size_t> &range) {
                              for (std::size_t i = range.begin(); i != range.end(); ++i) {
                                  if (cancel && cancel->load(std::memory_order_relaxed))
                                      return;
                                  std::optional<RunResult> shared = finished.find(i, requests[i].config.budget);
                                  const RunResult result = shared ? std::move(*shared)
                                                                      : replay(requests[i].config, cancel, spares.local());
                                  if (!shared)
                                      finished.add(i, result);
                                  const std::lock_guard<std::mutex> lock(handlerMutex);
                                  onResult(i, result);
                              }
                          });
    });
}

std::vector<RunResult> SweepRunner::runAll(const std::vector<RunRequest> &requests, const std::atomic<bool> *cancel,
                                           const std::function<void(std::size_t)> &finished) const
{
    std::vector<RunResult> results(requests.size());
    for (RunResult &r : results)
        r.outcome = Outcome::Cancelled;
    std::size_t count = 0;
    run(requests, cancel, [&](std::size_t i, const RunResult &result) {
        results[i] = result;
        if (result.outcome != Outcome::Cancelled && finished)
            finished(++count);
    });
    return results;
}

} // namespace rematlens
