#pragma once

#include "budget_interval.h"

#include <cstdint>
#include <limits>
#include <optional>

namespace rematlens {

// What one stretch of a replay, between two waypoints, adds to its result: the counts it made,
// the peak it reached and the comparisons with the budget it made. A replay whose state equals
// another's at a waypoint continues exactly as the other did, as long as every comparison of
// the other's later stretches comes out the same under its own budget (see compatibleWith):
// its result is then the fold of its own stretches and the other's.
struct ReplaySegment {
    std::int64_t evictions = 0;
    std::int64_t releasedEvictions = 0;
    std::int64_t remats = 0;
    std::int64_t heuristicEvals = 0;
    Bytes maxMemory = 0;
    Bytes bottleneck = 0;
    // Under an allocator model: its peaks in the stretch and the cache flushes it made.
    Bytes peakReserved = 0;
    Bytes peakAllocated = 0;
    std::int64_t cacheFlushes = 0;
    Bytes largestFitted = 0;                                      // 0 when nothing fitted
    Bytes smallestOver = std::numeric_limits<Bytes>::max();      // max when nothing was over
    // The stretch's first comparison at smallestOver; its remats and evictions before it are
    // counted from the stretch's start.
    std::optional<FlippingComparison> flip;

    // Every comparison of the stretch comes out under `budget` as it did.
    bool compatibleWith(Bytes budget) const { return largestFitted <= budget && smallestOver > budget; }
};

} // namespace rematlens
