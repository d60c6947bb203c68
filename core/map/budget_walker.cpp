#include "budget_walker.h"

#include "chunk_queue.h"

#include "../sim/replay.h"

#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include <algorithm>
#include <mutex>

namespace rematlens {

std::string mapProblem(const RunConfig &config)
{
    if (!config.allocator.isSum())
        return "the exact map needs --allocator sum: its intervals come from comparisons of live bytes with the "
               "budget, and an allocator model's placement depends on the budget in ways no interval captures "
               "(use a sweep)";
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

// The replays of one chunk, each continued from the last checkpoint of the one before that
// precedes its flip.
class BudgetWalker::ChunkReplays {
public:

    ChunkReplays(const BudgetWalker &walker, const std::atomic<bool> *cancel) : m_walker(walker), m_cancel(cancel)
    {
        const std::size_t steps = walker.m_program->schedule.size();
        if (walker.m_checkpointsPerReplay > 0)
            m_every = std::max<std::size_t>(1, steps / walker.m_checkpointsPerReplay);
    }

    RunResult replayAt(Bytes budget)
    {
        while (!m_saved.empty() && (!m_flipStep || m_saved.back()->step() > *m_flipStep))
            m_saved.pop_back();
        std::unique_ptr<Replay> replay;
        if (!m_saved.empty()) {
            replay = std::make_unique<Replay>(*m_saved.back());
        } else {
            RunConfig config = m_walker.m_config;
            config.budget = budget;
            replay = std::make_unique<Replay>(*m_walker.m_program, config, std::move(m_spareRegions));
        }
        const bool fresh = m_saved.empty();
        replay->continueUnder(budget, m_walker.deadline(), m_cancel);
        if (m_every)
            replay->setCheckpoints(m_every, [this](const Replay &r) { m_saved.push_back(std::make_unique<Replay>(r)); });
        const RunResult result = replay->run();
        m_spareRegions = replay->releaseRegionBuffers();
        if (fresh && result.seconds < m_walker.m_minCheckpointedSeconds) {
            m_every = 0;
            m_saved.clear();
        }
        m_flipStep.reset();
        if (result.flip)
            m_flipStep = result.flip->step;
        return result;
    }

private:
    const BudgetWalker &m_walker;
    const std::atomic<bool> *m_cancel;
    std::size_t m_every = 0;
    std::vector<std::unique_ptr<Replay>> m_saved; // increasing step, of the last replay's history
    std::optional<std::size_t> m_flipStep;        // of the last replay
    RegionBook::Buffers m_spareRegions;           // of the last replay, for the next
};

BudgetWalker::BudgetWalker(std::shared_ptr<const Program> program, RunConfig config, int threads)
    : m_program(std::move(program))
    , m_config(std::move(config))
    , m_threads(threads > 0 ? threads : tbb::this_task_arena::max_concurrency())
{
}

std::optional<std::chrono::steady_clock::time_point> BudgetWalker::deadline() const
{
    if (!m_wallLimitSeconds)
        return std::nullopt;
    return std::chrono::steady_clock::now()
           + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
               std::chrono::duration<double>(*m_wallLimitSeconds));
}

RunResult BudgetWalker::replayAt(Bytes budget, const std::atomic<bool> *cancel) const
{
    RunConfig config = m_config;
    config.budget = budget;
    config.deadline = deadline();
    config.cancel = cancel;
    return Replay(*m_program, config).run();
}

MapWalkEnd BudgetWalker::walk(const std::vector<ByteRange> &ranges, const std::atomic<bool> *cancel,
                              const IntervalHandler &onInterval, const ProgressHandler &onProgress) const
{
    std::vector<std::pair<ByteRange, Bytes>> chunks;
    Bytes total = 0;
    for (const ByteRange &range : ranges) {
        total += range.size();
        for (const ByteRange &piece : splitRange(range, m_chunksPerThread * static_cast<std::size_t>(threads())))
            chunks.emplace_back(piece, range.from);
    }
    Shared shared(cancel, onInterval, onProgress, total);
    ChunkQueue queue(chunks);
    tbb::task_arena arena(threads());
    arena.execute([&] {
        tbb::task_group group;
        for (int t = 0; t < threads(); ++t)
            group.run([&] {
                while (const std::optional<ChunkQueue::Claim> claim = queue.next()) {
                    try {
                        walkChunk(*claim, queue, shared);
                    } catch (...) {
                        queue.stop(claim->slot); // threads waiting for this chunk must not wait forever
                        throw;
                    }
                }
            });
        group.wait();
    });
    return shared.finish();
}

// Replays at the chunk's first budget, then at each interval's end, until past the chunk. The
// interval holding the chunk's first budget may begin in the chunk before; that chunk reports it.
void BudgetWalker::walkChunk(const ChunkQueue::Claim &chunk, ChunkQueue &queue, Shared &shared) const
{
    ChunkReplays replays(*this, shared.cancel());
    Bytes budget = chunk.bytes.from;
    while (budget < queue.end(chunk.slot)) {
        if (shared.cancelled()) {
            shared.leftUnmapped({budget, queue.stop(chunk.slot)}, false);
            return;
        }
        const RunResult result = replays.replayAt(budget);
        if (!isResolved(result.outcome)) {
            shared.leftUnmapped({budget, queue.stop(chunk.slot)}, true);
            return;
        }
        const Bytes next = queue.advance(chunk.slot, result.interval.hi);
        const bool ownsInterval = std::max(result.interval.lo, chunk.rangeFrom) >= chunk.bytes.from;
        shared.took(result, ownsInterval, next - budget);
        budget = next;
    }
    queue.stop(chunk.slot);
}

} // namespace rematlens
