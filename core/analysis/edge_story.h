#pragma once

#include "rescue_search.h"
#include "run_diff.h"

#include "../sim/memory_snapshot.h"
#include "../sim/run_recording.h"
#include "../sim/run_result.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace rematlens {

// The comparison where the smaller of two budgets had to evict and the larger did not: the
// first place their runs part (everything before it is the same in both).
struct AvoidedEviction {
    std::size_t event = 0;       // index into the smaller run's RunRecording::events
    std::uint32_t step = 0;      // index into Program::schedule
    TensorId tensor = 0;         // being materialized
    Bytes memoryInUse = 0;
    Bytes needed = 0;            // its operator's total output size
    Bytes demand = 0;            // memoryInUse + needed
    Bytes shortBySmaller = 0;    // demand - the smaller budget: what the smaller budget lacked
    Bytes slackOfLarger = 0;     // the larger budget - demand: what the larger had to spare
    std::int64_t evictionsBefore = 0; // evictions already made for this allocation
    TensorId victim = 0;         // the storage's root tensor the smaller budget evicted
    Bytes victimBytes = 0;
    Cost clock = 0;
    std::uint32_t depth = 0;
};

// What the extra resident bytes changed afterwards: the first policy eviction of the larger
// run, after the divergence, of a storage the program reads again and the smaller run did not
// evict in that model step.
struct LaterEviction {
    std::size_t event = 0;       // index into the larger run's RunRecording::events
    TensorId tensor = 0;         // the storage's root tensor
    Bytes bytes = 0;
    std::uint32_t step = 0;
    Cost clock = 0;
    std::uint32_t depth = 0;
    bool smallerEvictsItToo = false; // the smaller run evicts that storage later on as well
    bool rematerializedInFailingStep = false; // the failing (larger) run's last step rematerializes it
    std::int64_t differingEvictions = 0; // such evictions in all (the one told is the first, or the
                                         // first the failing step rematerializes)
    // The program's next operator reading it after the eviction's step, and how many of the
    // model's operators later that is (1: the very next one).
    std::optional<std::uint32_t> neededAtStep;
    std::int64_t operatorsUntilNeeded = 0;
    // Its next rematerialization in the larger run, if any: where, and how far away.
    std::optional<std::uint32_t> reuseStep;
    Cost reuseClock = 0;
    std::int64_t operatorsUntilReuse = 0; // the model's own operator calls in between
    std::int64_t rematsUntilReuse = 0;    // rematerializations in between
    bool releasedBeforeReuse = false;     // freed on release first: never needed again
};

// The model step where a failing run stopped, and the rematerializations it ran there.
struct FailureCascade {
    std::uint32_t step = 0;       // the failing step (out of memory), or where the limit was crossed
    TensorId tensor = 0;          // the tensor being materialized when it stopped
    std::uint32_t depth = 0;      // deepest nesting reached in that step
    std::int64_t remats = 0;      // rematerializations in that step
    std::int64_t distinctTensors = 0;
    Bytes rematBytes = 0;         // their operators' output bytes
    Cost rematCompute = 0;        // their operators' cost
    std::int64_t evictions = 0;   // policy evictions in that step
    Bytes evictedBytes = 0;
    std::vector<TensorId> rematerialized; // in order, each once
};

// One pass/fail boundary told in full: the two budgets' runs, where they part, what the kept
// bytes did later, how the failing one fails, and which single storages save it.
struct EdgeStory {
    Bytes smallerBudget = 0;
    Bytes largerBudget = 0;
    RunResult smaller;
    RunResult larger;
    bool failingIsSmaller = false; // the upper edge of a hole: its failing budget is below
    RunDiff diff;
    std::optional<AvoidedEviction> avoided;
    std::optional<LaterEviction> later;
    FailureCascade cascade;       // of the failing run
    // The later eviction's storage is read, or rematerialized, in the failing run's last step.
    bool laterNeededInFailingStep = false;
    // Under an allocator model, its memory at the failing run's last request (when one failed).
    std::optional<MemorySnapshot> failingLayout;
    bool rescued = false;         // whether a rescue search ran
    RescueReport rescue;          // of the failing run
    bool laterIsRescue = false;   // keeping the later eviction's storage resident saves the run
    bool victimIsRescue = false;  // keeping the avoided victim resident saves it
    std::size_t replays = 0;      // replays to tell it, the rescue search's excepted

    Bytes failingBudget() const { return failingIsSmaller ? smallerBudget : largerBudget; }
    const RunResult &failing() const { return failingIsSmaller ? smaller : larger; }
    const RunResult &passing() const { return failingIsSmaller ? larger : smaller; }
};

// The story of two recorded runs of one program under two budgets (smaller first), one of
// them failing; the rescue is left for the caller.
EdgeStory readEdgeStory(const Program &program, Bytes smallerBudget, const RunRecording &smaller,
                        const RunResult &smallerResult, Bytes largerBudget, const RunRecording &larger,
                        const RunResult &largerResult);

} // namespace rematlens
