#include "budget_walker.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <mutex>

namespace rematlens {

std::string mapProblem(const RunConfig &config)
{
    if (!config.policy.readsBudget())
        return {};
    return "policy " + config.policy.name
           + " reads the bytes an allocation still lacks, which depend on the budget itself, so one replay "
             "does not stand for an interval of budgets; the exact map cannot cover it (use a sweep)";
}

// What the chunks of one walk share: the handlers, called one at a time, and the tally.
class BudgetWalker::Shared {
public:
    Shared(const std::atomic<bool> *cancel, const IntervalHandler &onInterval, const ProgressHandler &onProgress,
           Bytes total)
        : m_cancel(cancel), m_onInterval(onInterval), m_onProgress(onProgress)
    {
        m_progress.total = total;
    }

    const std::atomic<bool> *cancel() const { return m_cancel; }
    bool cancelled() const { return m_cancel && m_cancel->load(std::memory_order_relaxed); }

    // A resolved replay that classified `mapped` more budgets of its chunk.
    void took(const RunResult &result, bool report, Bytes mapped)
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        ++m_progress.replays;
        m_progress.mapped += mapped;
        if (report) {
            ++m_progress.intervals;
            m_onInterval(result);
        }
        if (m_onProgress)
            m_onProgress(m_progress);
    }

    void leftUnmapped(ByteRange range, bool replayed)
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_end.unmapped.push_back(range);
        if (replayed)
            ++m_progress.replays;
    }

    MapWalkEnd finish()
    {
        std::sort(m_end.unmapped.begin(), m_end.unmapped.end(),
                  [](const ByteRange &a, const ByteRange &b) { return a.from < b.from; });
        std::vector<ByteRange> merged;
        for (const ByteRange &r : m_end.unmapped)
            if (!merged.empty() && merged.back().end == r.from)
                merged.back().end = r.end;
            else
                merged.push_back(r);
        m_end.unmapped = std::move(merged);
        m_end.replays = m_progress.replays;
        m_end.cancelled = cancelled();
        return std::move(m_end);
    }

private:
    const std::atomic<bool> *m_cancel;
    const IntervalHandler &m_onInterval;
    const ProgressHandler &m_onProgress;
    std::mutex m_mutex;
    MapProgress m_progress;
    MapWalkEnd m_end;
};

BudgetWalker::BudgetWalker(std::shared_ptr<const Program> program, RunConfig config, int threads)
    : m_runner(std::move(program), threads), m_config(std::move(config))
{
}

RunResult BudgetWalker::replayAt(Bytes budget, const std::atomic<bool> *cancel) const
{
    RunConfig config = m_config;
    config.budget = budget;
    return m_runner.runOne(config, cancel);
}

MapWalkEnd BudgetWalker::walk(const std::vector<ByteRange> &ranges, const std::atomic<bool> *cancel,
                              const IntervalHandler &onInterval, const ProgressHandler &onProgress) const
{
    std::vector<Chunk> chunks;
    Bytes total = 0;
    for (const ByteRange &range : ranges) {
        total += range.size();
        for (const ByteRange &piece : splitRange(range, m_chunksPerThread * static_cast<std::size_t>(threads())))
            chunks.push_back(Chunk{piece, range.from});
    }
    Shared shared(cancel, onInterval, onProgress, total);
    tbb::task_arena arena(threads());
    arena.execute([&] {
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, chunks.size(), 1),
                          [&](const tbb::blocked_range<std::size_t> &r) {
                              for (std::size_t i = r.begin(); i != r.end(); ++i)
                                  walkChunk(chunks[i], shared);
                          });
    });
    return shared.finish();
}

// Replays at the chunk's first budget, then at each interval's end, until past the chunk. The
// interval holding the chunk's first budget may begin in the chunk before; that chunk reports it.
void BudgetWalker::walkChunk(const Chunk &chunk, Shared &shared) const
{
    Bytes budget = chunk.bytes.from;
    while (budget < chunk.bytes.end) {
        if (shared.cancelled()) {
            shared.leftUnmapped({budget, chunk.bytes.end}, false);
            return;
        }
        const RunResult result = replayAt(budget, shared.cancel());
        if (!isResolved(result.outcome)) {
            shared.leftUnmapped({budget, chunk.bytes.end}, true);
            return;
        }
        const Bytes next = result.interval.hi ? std::min(*result.interval.hi, chunk.bytes.end) : chunk.bytes.end;
        const bool ownsInterval = std::max(result.interval.lo, chunk.rangeFrom) >= chunk.bytes.from;
        shared.took(result, ownsInterval, next - budget);
        budget = next;
    }
}

} // namespace rematlens
