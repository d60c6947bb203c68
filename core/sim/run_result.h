#pragma once

#include "../trace/program.h"
#include "../alloc/allocation_summary.h"
#include "../alloc/capacity_figures.h"
#include "../alloc/oom_kind.h"
#include "budget_interval.h"

#include <optional>
#include <string>
#include <string_view>

namespace rematlens {

// Timeout (over the wall limit) and Cancelled (stopped on request) are unresolved: neither
// pass nor failure.
// Impossible: below the budget any replay needs (fitFloor), known without replaying; a failure.
enum class Outcome { Pass, OutOfMemory, Thrash, Timeout, Cancelled, Impossible };

// "pass", "oom" or "thrash", as in simrd's reference records; "timeout", "cancelled", "impossible".
std::string_view outcomeName(Outcome outcome);
std::optional<Outcome> findOutcome(std::string_view name);
inline bool isFailure(Outcome o) { return o == Outcome::OutOfMemory || o == Outcome::Thrash || o == Outcome::Impossible; }
inline bool isResolved(Outcome o) { return o == Outcome::Pass || isFailure(o); }

// Where an out-of-memory run stopped.
struct Failure {
    std::size_t step = 0;       // index into Program::schedule
    int line = 0;               // trace line of that step (0 for the final output pins)
    std::string operatorName;   // operator of the tensor being materialized
    std::string tensor;         // the tensor being materialized
    Bytes bytesNeeded = 0;      // its operator's total output size
    Bytes memoryInUse = 0;
    Bytes bytesShort = 0;       // memoryInUse + bytesNeeded - budget
    int depth = 0;              // nesting of materializations; 1 is the model's own call
    Bytes lockedBytes = 0;      // held by locked or pinned storages
    // Under an allocator model: why the request failed, the request itself (one output's
    // bytes), and the largest request the allocator could have placed at that moment.
    std::optional<OomKind> oomKind;
    Bytes request = 0;
    Bytes largestFreeBlock = 0;
    // Under an allocator whose capacity is the budget: what bytesShort and largestFreeBlock
    // are made of.
    std::optional<CapacityFigures> capacityFigures;

    // bytesShort (and under an allocator whose capacity is the budget, largestFreeBlock) as a
    // replay of the same interval at `budget` reports them: the fields that move with it.
    void restateAt(Bytes budget);
};

struct RunResult {
    Outcome outcome = Outcome::Pass;
    Cost clock = 0;
    Cost rematCompute = 0;
    Cost modelCompute = 0;
    Bytes maxMemory = 0;
    Bytes memoryAtEnd = 0;
    std::int64_t evictions = 0;         // chosen by the policy
    std::int64_t releasedEvictions = 0; // on release (eager) or banishing
    std::int64_t remats = 0;
    std::int64_t heuristicEvals = 0;
    Bytes constMemory = 0;
    Bytes bottleneck = 0;               // only measured when asked
    std::optional<Failure> failure;
    // Every budget in this interval replays decision for decision the same (for a policy that
    // does not read the budget, see Policy::readsBudget); meaningful for resolved outcomes only.
    // The failure's bytesShort (and largestFreeBlock) still depend on the budget inside it:
    // see Failure::restateAt.
    BudgetInterval interval;
    std::optional<FlippingComparison> flip; // the comparison at interval.hi, when there is one
    double seconds = 0;                 // wall time of the replay itself
    std::optional<AllocationSummary> allocation; // absent under the byte sum
};

} // namespace rematlens
