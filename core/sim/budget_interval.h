#pragma once

#include "../trace/program.h"

#include <cstdint>
#include <optional>

namespace rematlens {

// The budget enters a replay only through comparisons `memory + needed > budget`. One replay
// therefore stands for every budget in the half-open interval [lo, hi) that makes each of its
// comparisons come out the same: lo is the largest demand that fitted, hi the smallest that did
// not (absent when nothing was ever over the budget).
struct BudgetInterval {
    Bytes lo = 0;
    std::optional<Bytes> hi;

    bool contains(Bytes budget) const { return budget >= lo && (!hi || budget < *hi); }
    bool operator==(const BudgetInterval &) const = default;
};

// The first comparison of a replay whose demand equals its interval's hi: with one byte more
// of budget this one fits, and the replay takes another path from here.
struct FlippingComparison {
    std::size_t step = 0;         // index into Program::schedule
    TensorId tensor = 0;          // being materialized
    Bytes memoryInUse = 0;
    Bytes needed = 0;             // its operator's total output size
    std::int64_t evictionsBefore = 0; // policy evictions already made for this allocation
    // What the replay did because the demand did not fit: evicted this storage's root tensor
    // (kNone when the pool was empty and the run ran out of memory instead).
    TensorId victim = kNone;
    // How far the replay had got: remats and policy evictions it had made before this
    // comparison, so where a replay first differs from its neighbour's is known within a step too.
    std::int64_t rematsBefore = 0;
    std::int64_t runEvictionsBefore = 0;

    bool operator==(const FlippingComparison &) const = default;
};

} // namespace rematlens
