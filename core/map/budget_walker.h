#pragma once

#include "byte_range.h"
#include "chunk_queue.h"

#include "../sim/run_config.h"
#include "../sim/run_result.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rematlens {

// Why the exact map cannot cover this configuration (a policy whose victims depend on the
// budget itself), or empty when it can. Allocator models map too: every decision of theirs
// that reads the budget compares it with a demand the history fixed.
std::string mapProblem(const RunConfig &config);

// How far a walk has got, for progress bars.
struct MapProgress {
    Bytes mapped = 0;        // budgets classified so far
    Bytes total = 0;         // budgets the walk was asked for
    std::size_t intervals = 0;
    std::size_t replays = 0;
};

// What a walk left undone: ranges whose replay timed out or was cancelled (never guessed).
struct MapWalkEnd {
    std::vector<ByteRange> unmapped; // increasing, merged where they touch
    std::size_t replays = 0;
    std::size_t joins = 0; // replays that met an earlier one's path in the same state and followed it
    bool cancelled = false;
};

// Classifies every budget of some ranges exactly: replays at a budget, learns the interval of
// budgets that replay identically, and continues at the interval's end. Ranges are cut into
// chunks walked in parallel on oneTBB, and a thread with no chunk left splits the busiest one
// (ChunkQueue); each interval is reported once, by the chunk holding its lowest budget inside
// the range. Each chunk's replays reuse their predecessor's region buffers. Usable from a GUI
// controller: results and progress arrive one call at a time (from worker threads) as
// intervals finish, and *cancel stops it.
//
// Consecutive replays are identical up to the comparison that flips (the previous interval's
// hi), and mostly meet again in the same state soon after. So each replay keeps copies of
// itself every so many waypoints (ReplayTrail); the next one continues from the last copy
// before that comparison, compares itself with the earlier replay's copies as it goes, and
// where it meets one follows the earlier path as far as its own budget leaves that path
// unchanged (when replays are long enough for copying to pay). Each thread keeps its last trail
// across its chunks; its first replay follows the walk's first replay's trail (FirstTrail).
class BudgetWalker {
public:
    using IntervalHandler = std::function<void(const RunResult &result)>;
    using ProgressHandler = std::function<void(const MapProgress &progress)>;

    // config.budget is ignored; threads <= 0: as many as the machine has.
    BudgetWalker(std::shared_ptr<const Program> program, RunConfig config, int threads);

    // Each replay ends as Timeout past this wall time, leaving the rest of its chunk unmapped.
    void setWallLimit(std::optional<double> seconds) { m_wallLimitSeconds = seconds; }
    // Chunks per thread the ranges are cut into before idle threads split them further; each
    // costs about one replay more.
    void setChunksPerThread(std::size_t chunks) { m_chunksPerThread = chunks; }
    // Copies kept along a replay (one every steps / count waypoints) to continue and join the
    // next one from (default 128, fewer above four threads; under an allocator model 8 until a
    // replay of the thread has joined an earlier path); 0 replays every budget from step 0. A thread whose first replay takes less
    // than minReplaySeconds replays from step 0 too (copying would cost about what it saves), until
    // one of its replays takes longer.
    void setCheckpointsPerReplay(std::size_t count, double minReplaySeconds = 0.005)
    {
        m_checkpointsPerReplay = count;
        m_minCheckpointedSeconds = minReplaySeconds;
    }

    MapWalkEnd walk(const std::vector<ByteRange> &ranges, const std::atomic<bool> *cancel,
                    const IntervalHandler &onInterval, const ProgressHandler &onProgress = {}) const;

    // The replay of one budget, as the walk makes it.
    RunResult replayAt(Bytes budget, const std::atomic<bool> *cancel = nullptr) const;

    int threads() const { return m_threads; }

private:
    class Shared;
    class ChunkReplays;
    void walkChunk(const ChunkQueue::Claim &chunk, ChunkQueue &queue, Shared &shared, ChunkReplays &replays) const;
    std::optional<std::chrono::steady_clock::time_point> deadline() const;

    std::shared_ptr<const Program> m_program;
    RunConfig m_config;
    int m_threads;
    std::optional<double> m_wallLimitSeconds;
    std::size_t m_chunksPerThread = 16;
    std::size_t m_checkpointsPerReplay;
    double m_minCheckpointedSeconds = 0.005;
};

} // namespace rematlens
