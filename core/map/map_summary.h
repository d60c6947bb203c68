#pragma once

#include "byte_range.h"

#include "../sim/run_result.h"

#include <optional>
#include <vector>

namespace rematlens {

// A maximal run of budgets with one result (or unmapped), bytes inclusive, within the range.
struct MapStretch {
    Bytes first = 0;
    Bytes last = 0;
    Outcome outcome = Outcome::Pass; // Timeout stands for unmapped
    bool unmapped = false;
    std::size_t intervals = 0;
};

// Failing budgets (first..last, inclusive, every one of them mapped) with passing budgets right
// below and right above.
struct MapHole {
    Bytes firstFail = 0;
    Bytes lastFail = 0;
};

enum class MonotoneVerdict {
    Monotone,     // nothing fails above the first passing budget
    NotMonotone,  // something does
    Undetermined, // nothing known fails above it, but unmapped budgets are there
};

struct MapSummary {
    ByteRange range;
    std::size_t intervals = 0;                 // intervals meeting the range
    std::vector<MapStretch> stretches;
    std::vector<MapHole> holes;
    // Stretches between passing budgets that fail in part and are unmapped in part: a hole may
    // lie there, its bounds unknown until the rest is mapped (first..last, inclusive).
    std::vector<MapStretch> undecided;
    std::optional<Bytes> firstPass;
    std::optional<Bytes> stableFrom;           // every budget from here to the range's end passes
    std::vector<MapStretch> failuresAboveFirstPass;
    std::vector<ByteRange> unmapped;
    MonotoneVerdict verdict = MonotoneVerdict::Monotone;
};

// Intervals (in any order; repeats are ignored) sorted by their lowest budget.
std::vector<RunResult> sortedIntervals(std::vector<RunResult> intervals);

// The summary of a map over `range`; budgets no interval covers are unmapped.
MapSummary summarizeMap(ByteRange range, const std::vector<RunResult> &sorted);

const char *verdictName(MonotoneVerdict verdict);

} // namespace rematlens
