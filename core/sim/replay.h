#pragma once

#include "../alloc/allocator.h"
#include "eq_class_forest.h"
#include "evictable_pool.h"
#include "material_flags.h"
#include "neighbourhood_search.h"
#include "lazy_regions.h"
#include "region_book.h"
#include "replay_graph.h"
#include "replay_position.h"
#include "replay_segment.h"
#include "run_config.h"
#include "run_result.h"
#include "score_expression.h"

#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <vector>

namespace rematlens {

// One replay of a program under one budget, policy and runtime, reproducing simrd's
// RuntimeV2EagerOptimized, RuntimeV2Optimized and RuntimeV1 decision for decision.
// A Replay owns all mutable state; the program is only read, so replays run in parallel.
class Replay {
public:
    // recycled: the region buffers of an earlier replay of the same program, to reuse.
    Replay(const Program &program, const RunConfig &config, RegionBook::Buffers recycled = {});
    // The replay as it stands (between two steps, or at a waypoint inside one), to be continued
    // on its own (see continueUnder).
    Replay(const Replay &other);
    Replay &operator=(const Replay &) = delete;

    // Runs the rest of the schedule (all of it, unless this is a continued copy).
    RunResult run();

    // Every `every` steps, before the step runs, onCheckpoint sees the replay (to copy it).
    // A copy does not inherit this.
    void setCheckpoints(std::size_t every, std::function<void(const Replay &)> onCheckpoint);
    // A copy taken at a checkpoint continues under another budget and limits. Only valid while
    // every budget comparison before the checkpoint comes out the same under the new budget,
    // which holds for a checkpoint at or before the step of the old run's flip, resumed at the
    // old interval's hi: the replay at hi is identical up to that comparison.
    void continueUnder(Bytes budget, std::optional<std::chrono::steady_clock::time_point> deadline,
                       const std::atomic<bool> *cancel);
    // The next step to run (or the one in progress, at a waypoint inside it).
    std::size_t step() const { return m_step; }

    // Waypoints: before every step but the first one run, and inside a step whenever one
    // materialization of a recomputation cascade finishes with others still pending. There the
    // replay may be copied (and a copy continued), compared with another and stopped:
    // onWaypoint returning false stops the run (halted() is then true). A copy does not inherit
    // the hook.
    void setWaypoints(std::function<bool(Replay &)> onWaypoint) { m_onWaypoint = std::move(onWaypoint); }
    bool halted() const { return m_halted; }
    ReplayPosition position() const;
    // Everything that decides the rest of the run is the same in both replays, whatever their
    // budgets, counts and comparisons so far. Plays back this replay's deferred region
    // bookkeeping first (which does not change its course); other's must be played back
    // already (catchUpRegions), or the answer is false.
    bool sameState(const Replay &other);
    // Plays back the deferred region bookkeeping now, so that a copy starts with none.
    void catchUpRegions();
    // The stretch since the last call (or since the start): its counts, peak and comparisons;
    // the next stretch starts here. The result of run() then reports only the last stretch's
    // counts, peak and interval, so the caller folds the stretches itself.
    ReplaySegment takeSegment();
    // Counts, from now on, how often the policy scores each storage (for branchKeeping).
    void tallyScores() { m_scoreTally.assign(m_program.storages.size(), 0); }
    // A copy of this replay, standing at a waypoint before the policy first chooses t's storage,
    // that keeps the storage resident from here on. It stands where a replay asked to keep it
    // from the start would stand (the storage out of the pool, its scores so far not counted),
    // so it finishes as that replay would: a choice that passes over a storage does not depend
    // on it. Needs tallyScores() from the start; not for random choice, which reads the pool's
    // size.
    std::unique_ptr<Replay> branchKeeping(TensorId t) const;
    // The region buffers, for the next replay of the same program; this one is spent.
    RegionBook::Buffers releaseRegionBuffers() { return m_regions ? m_regions->releaseBuffers() : RegionBook::Buffers{}; }
    // The allocator model's state (null under the byte sum), for checks at checkpoints.
    const Allocator *allocator() const { return m_allocator.get(); }

private:
    static constexpr Cost kNeverAccessed = std::numeric_limits<Cost>::min(); // simrd's -inf

    enum class EvictCause { Policy, Release };
    struct Frame {
        TensorId tensor;
        bool remat;
        bool awaitingParent = false;
        std::uint8_t phase = 0;
        std::uint32_t pendingBegin = 0; // undefined parents, in m_pending
        std::uint32_t pendingCount = 0;
        std::uint32_t cursor = 0;
        bool operator==(const Frame &) const = default;
    };
    class Stopped {}; // thrown to unwind a run that ran out of memory or over the compute limit

    // replay.cpp: the schedule and the materialization machinery
    void finishCompute(OpId op);
    void getStep(TensorId t);
    void releaseStep(TensorId t);
    void runStep(bool resumed);
    void startCompute(OpId op);
    void drainFrames();
    void waypoint();
    void beginFrame(Frame &frame);
    void finishFrame(const Frame &frame);
    void touchParents(TensorId t);
    void freeMemory(TensorId t);
    bool overBudget(Bytes demand, TensorId t, std::int64_t evictionsSoFar);
    void computeOperator(TensorId t, bool remat);
    void evict(StorageId s, EvictCause cause);
    void lock(StorageId s);
    void unlock(StorageId s);
    void pin(TensorId t);
    void stopOutOfMemory(TensorId t);
    Failure failureAt(TensorId t) const;
    [[noreturn]] void stopWith(Failure failure);

    // replay_allocation.cpp: an allocator model instead of the byte sum (not called under sum)
    void placeOutputs(TensorId t);
    BlockHandle placeBlock(TensorId t, Bytes size);
    void takeCapacityBounds(TensorId t, std::int64_t evictionsSoFar);
    bool sameAllocation(const Replay &other) const;
    void bindPlacedBlocks(const OpInfo &op);
    void evictWhileOverBudget(TensorId t);
    void stopAllocatorOutOfMemory(TensorId t, Bytes request, OomKind kind);
    void validateAllocator();
    void summarizeAllocation();
    void sampleAllocation();
    void foldLastAllocationSample();
    void takeSnapshot(const Failure *failure);
    void offerToPolicy(StorageId s);
    void record(ReplayEvent::Kind kind, TensorId tensor, Bytes bytes);
    void sample();
    void sampleStepEnd();
    void checkInterruption();
    bool material(StorageId s) const { return m_flags.material(s); }
    void setMaterial(StorageId s, bool on);
    void startHashing() const;

    // replay_banishing.cpp: RuntimeV1's bookkeeping
    void addEvictedDependents(OpId op);
    void unlockParentsBanishing(TensorId t);
    void tryBanish(StorageId s);
    static void eraseValue(std::vector<TensorId> &set, TensorId t);
    static void insertValue(std::vector<TensorId> &set, TensorId t);

    // replay_policy.cpp: choosing victims, and the equivalence classes DTREqClass scores with
    StorageId chooseVictim(Bytes shortfall);
    bool scoresBoundWithoutRegions() const;
    StorageId scanResolvingContenders();
    Cost knownCost(StorageId s, bool readsForward) const;
    bool resolveContenders(double &best, bool readsForward);
    StorageId choiceAmongScanned(std::uint32_t scanned);
    StorageId shortfallFirstVictim(Bytes shortfall);
    double expressionScore(StorageId s);
    std::size_t neighbourhoodCount(StorageId s) const;
    struct EveryStorage {
        bool operator()(StorageId) const { return true; }
    };
    template <typename Score, typename Eligible = EveryStorage>
    StorageId scanPool(Score &&score, Eligible &&eligible = EveryStorage{});
    template <typename Score, typename Eligible, typename Tally>
    StorageId scanPoolTallying(Score &&score, Eligible &&eligible, Tally &&tally);
    double ratioScore(StorageId s, Cost numerator, Cost lastAccess) const;
    Cost costTerm(StorageId s);
    Cost eqClassCompute(StorageId s);
    Cost freshNeighbourhood(StorageId s, Cost &lastAccess);
    void updateEqClassesOnEvict(StorageId s);
    void updateEqClassesOnCompute();

    const Program &m_program;
    RunConfig m_config;
    ReplayGraph m_graph;
    EvictablePool m_pool;
    bool m_eqClasses;

    // per storage
    MaterialFlags m_flags;
    std::vector<std::int32_t> m_locks;
    std::vector<std::int32_t> m_externalRefs;
    std::vector<Cost> m_lastAccess;
    std::vector<Cost> m_compute;
    std::vector<EqClassForest::Node> m_eqNode; // kNone when the storage has none
    std::vector<std::vector<TensorId>> m_evictedDependents; // banishing only, kept sorted
    std::vector<std::uint8_t> m_kept; // RunConfig::keepResident; empty when there are none
    // per tensor
    std::vector<std::uint8_t> m_defined;

    EqClassForest m_eq;
    std::mt19937_64 m_random;

    std::vector<Frame> m_frames;
    std::vector<TensorId> m_pending;
    std::vector<TensorId> m_rematSiblings;     // of the operator just computed
    std::vector<StorageId> m_rematStorages;    // storages it made material
    NeighbourhoodSearch m_search;
    std::optional<LazyRegions> m_regions;      // for the policies that read e*
    StampSet m_marks;                          // scratch of freshNeighbourhood, sized at its first use
    StampSet m_rootMarks; // scratch of eqClassCompute: the classes met
    Region m_scratchForward;
    Region m_scratchBackward;
    // Scratch of scanResolvingContenders: the pool as scanned, each storage's score or its bound.
    std::vector<StorageId> m_scanned;
    std::vector<double> m_scannedScore;
    std::vector<std::uint32_t> m_contenders; // indices into m_scanned
    std::optional<ScoreExpression> m_expression; // compiled at the first choice of an expression policy
    std::vector<std::int64_t> m_scoreTally;      // per storage, when tallyScores() asked for it

    std::size_t m_step = 0;
    std::uint32_t m_untilInterruptionCheck = 0;
    Cost m_clock = 1;
    Bytes m_memory = 0;
    Bytes m_lockedBytes = 0;
    RunResult m_result;

    // The budget interval, narrowed at every comparison with the budget.
    Bytes m_largestFitted = 0;
    Bytes m_smallestOver = std::numeric_limits<Bytes>::max();
    FlippingComparison m_flip;
    bool m_flipAwaitsVictim = false;

    // Null under the byte sum: then the replay only keeps m_memory, as simrd does.
    std::unique_ptr<Allocator> m_allocator;
    std::vector<BlockHandle> m_blockOf;  // per storage, kNone when it holds no block
    std::vector<BlockHandle> m_placed;   // blocks of the operator being computed, by output
    std::size_t m_untilValidation = 0;
    std::string m_layoutProblem;
    std::uint64_t m_allocatorChangesAtSample = ~std::uint64_t(0);

    std::size_t m_checkpointEvery = 0;
    std::function<void(const Replay &)> m_onCheckpoint;
    std::function<bool(Replay &)> m_onWaypoint;
    bool m_halted = false;
    // position()'s hash of the material set, kept up from its first call on: a replay that no
    // walker follows never pays for it.
    mutable bool m_hashing = false;
    mutable std::uint64_t m_materialHash = 0;
    ReplaySegment m_segmentBase; // the counts when the current stretch began
};

} // namespace rematlens
