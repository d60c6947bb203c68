#include "budget_walker.h"

#include "chunk_queue.h"
#include "first_trail.h"
#include "replay_trail.h"

#include "../sim/replay.h"

#include <tbb/task_arena.h>
#include <tbb/task_group.h>

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

    void joined(std::size_t joins)
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_end.joins += joins;
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

// Copies kept along a replay under an allocator model until one of the thread's replays has
// joined an earlier one's path. There replays rarely join (two budgets' memories hold different
// segments until a cache flush), so a copy mostly serves to start the next replay late, which a
// few copies do nearly as well; 128 copies of InceptionV4's state cost more than its replay.
// Under the byte sum replays join often, and do so only where the copies are dense.
constexpr std::size_t kCopiesUntilJoined = 8;

// The replays of one thread. Each records its trail (copies of its state every so many
// waypoints); the next one starts from the last copy its budget leaves unchanged: within a
// chunk, the last before the comparison that flips. Where its path meets the
// last one's again in the same state (as neighbouring budgets' paths mostly do, soon after they
// part), it takes over the rest of that path as far as its budget leaves the path unchanged, and
// replays only from there. A thread's first replay follows the walk's first replay's trail.
class BudgetWalker::ChunkReplays {
public:
    ChunkReplays(const BudgetWalker &walker, FirstTrail &firstTrail, const std::atomic<bool> *cancel)
        : m_walker(walker), m_firstTrail(firstTrail), m_cancel(cancel)
    {
        const std::size_t steps = walker.m_program->schedule.size();
        if (walker.m_checkpointsPerReplay > 0) {
            m_copySpacing = std::max<std::size_t>(1, steps / walker.m_checkpointsPerReplay);
            m_spacing = m_copySpacing;
            const bool modelled = walker.m_config.allocator.kind != AllocatorKind::Sum;
            m_spacingUntilJoined = modelled ? std::max(m_spacing, steps / kCopiesUntilJoined) : m_spacing;
        }
    }

    RunResult replayAt(Bytes budget)
    {
        if (!m_started) {
            m_started = true;
            return firstReplayAt(budget);
        }
        return nextReplayAt(budget);
    }

    // Times a replay met the one before in the same state.
    std::size_t joins() const { return m_joins; }

private:
    enum class Halt { None, TookRest, Jumped };

    // The walk's first replay, whose trail the other threads then wait for, or one that follows it.
    RunResult firstReplayAt(Bytes budget)
    {
        if (!m_spacing)
            return fromStart(budget);
        if (!m_firstTrail.claim()) {
            m_last = m_firstTrail.await(); // none: this thread's first replay starts from step 0 and decides for itself
            return nextReplayAt(budget);
        }
        try {
            RunResult result = nextReplayAt(budget);
            m_firstTrail.publish(m_last);
            return result;
        } catch (...) {
            m_firstTrail.publish({}); // the threads waiting for it must not wait forever
            throw;
        }
    }

    RunResult nextReplayAt(Bytes budget)
    {
        if (!m_spacing)
            return fromStart(budget);
        const auto started = std::chrono::steady_clock::now();
        RunResult result = follow(budget);
        result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        return result;
    }

    RunResult fromStart(Bytes budget)
    {
        RunConfig config = m_walker.m_config;
        config.budget = budget;
        config.deadline = m_walker.deadline();
        config.cancel = m_cancel;
        Replay replay(*m_walker.m_program, config, std::move(m_spareRegions));
        const RunResult result = replay.run();
        m_spareRegions = replay.releaseRegionBuffers();
        // Copies were given up on a short replay (the low end of a range often fails within
        // a few operators); one as long as they pay for takes them up again for the next.
        if (m_copySpacing && result.seconds >= m_walker.m_minCheckpointedSeconds)
            m_spacing = m_copySpacing;
        return result;
    }

    // The replay at budget along the last trail as far as it holds, recording its own trail.
    RunResult follow(Bytes budget)
    {
        ReplayTrail trail;
        std::unique_ptr<Replay> live;
        std::size_t anchor = 0; // the last trail's entry the live replay is known to be past
        if (m_last) {
            const std::size_t k = m_last->reachable(0, budget);
            if (k == m_last->size())
                return m_last->resultUnder(budget);
            trail.addFrom(*m_last, 0, k);
            live = std::make_unique<Replay>(*m_last->entry(k).state);
            anchor = k;
        } else {
            RunConfig config = m_walker.m_config;
            config.budget = budget;
            live = std::make_unique<Replay>(*m_walker.m_program, config, std::move(m_spareRegions));
            const ReplayPosition start = live->position(); // before the copy, which then keeps its hash
            trail.add({std::make_shared<const Replay>(*live), start, {}});
        }
        const bool first = !m_last;
        for (;;) {
            Halt halt = Halt::None;
            std::size_t since = 0;         // waypoints since the last entry
            std::size_t next = anchor + 1; // the last trail's first entry not yet passed
            live->continueUnder(budget, m_walker.deadline(), m_cancel);
            live->setWaypoints([&](Replay &r) {
                if (m_last) {
                    const std::optional<std::size_t> m = m_last->find(r, next);
                    if (m && r.sameState(*m_last->entry(*m).state)) {
                        trail.add({m_last->entry(*m).state, r.position(), r.takeSegment()});
                        since = 0;
                        ++m_joins;
                        const std::size_t k = m_last->reachable(*m, budget);
                        if (k == m_last->size()) {
                            trail.addFrom(*m_last, *m + 1, m_last->size() - 1);
                            trail.finishAs(*m_last);
                            halt = Halt::TookRest;
                            return false;
                        }
                        anchor = k;
                        next = k + 1;
                        if (k > *m) {
                            trail.addFrom(*m_last, *m + 1, k);
                            halt = Halt::Jumped;
                            return false;
                        }
                        return true;
                    }
                }
                if (++since >= (m_joins > 0 ? m_spacing : m_spacingUntilJoined)) {
                    ReplaySegment segment = r.takeSegment();
                    r.catchUpRegions();
                    const ReplayPosition here = r.position();
                    trail.add({std::make_shared<const Replay>(r), here, segment});
                    since = 0;
                }
                return true;
            });
            const RunResult end = live->run();
            if (!live->halted()) {
                if (!isResolved(end.outcome)) {
                    m_last.reset();
                    return end;
                }
                trail.finish(live->takeSegment(), end);
                break;
            }
            if (halt == Halt::TookRest)
                break;
            live = std::make_unique<Replay>(*m_last->entry(anchor).state); // Halt::Jumped
        }
        m_last = std::make_shared<ReplayTrail>(std::move(trail));
        RunResult result = m_last->resultUnder(budget);
        if (first && result.seconds < m_walker.m_minCheckpointedSeconds) {
            m_spacing = 0; // copying would cost about what it saves
            m_last.reset();
            m_spareRegions = live->releaseRegionBuffers();
        }
        return result;
    }

    const BudgetWalker &m_walker;
    FirstTrail &m_firstTrail;
    const std::atomic<bool> *m_cancel;
    bool m_started = false;
    std::size_t m_joins = 0;
    std::size_t m_spacing = 0;              // waypoints between copies; 0: every replay from step 0
    std::size_t m_copySpacing = 0;          // m_spacing while copies are kept; 0: never kept
    std::size_t m_spacingUntilJoined = 0;   // until a replay of this thread has joined an earlier one
    std::shared_ptr<const ReplayTrail> m_last; // of the last replay
    RegionBook::Buffers m_spareRegions;     // for the next replay from step 0
};

BudgetWalker::BudgetWalker(std::shared_ptr<const Program> program, RunConfig config, int threads)
    : m_program(std::move(program))
    , m_config(std::move(config))
    , m_threads(threads > 0 ? threads : tbb::this_task_arena::max_concurrency())
    // Every thread keeps its trail's copies (a few MB each on the large public traces): many
    // threads keep fewer each, so that the walk's memory stays about that of four threads.
    , m_checkpointsPerReplay(std::clamp<std::size_t>(512 / static_cast<std::size_t>(m_threads), 16, 128))
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
    FirstTrail firstTrail;
    tbb::task_arena arena(threads());
    arena.execute([&] {
        tbb::task_group group;
        for (int t = 0; t < threads(); ++t)
            group.run([&] {
                ChunkReplays replays(*this, firstTrail, shared.cancel()); // one trail per thread, across its chunks
                while (const std::optional<ChunkQueue::Claim> claim = queue.next()) {
                    try {
                        walkChunk(*claim, queue, shared, replays);
                    } catch (...) {
                        queue.stop(claim->slot); // threads waiting for this chunk must not wait forever
                        throw;
                    }
                }
                shared.joined(replays.joins());
            });
        group.wait();
    });
    return shared.finish();
}

// Replays at the chunk's first budget, then at each interval's end, until past the chunk. The
// interval holding the chunk's first budget may begin in the chunk before; that chunk reports it.
void BudgetWalker::walkChunk(const ChunkQueue::Claim &chunk, ChunkQueue &queue, Shared &shared,
                             ChunkReplays &replays) const
{
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
