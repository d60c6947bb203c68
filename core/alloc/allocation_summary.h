#pragma once

#include "../trace/program.h"

#include <string>

namespace rematlens {

// What a replay under an allocator model (not the byte sum) reports of its allocator.
struct AllocationSummary {
    Bytes peakReserved = 0;
    Bytes peakAllocated = 0;
    std::int64_t cacheFlushes = 0; // misses that released cached segments to retry
    // The first broken layout invariant, when the run validated its allocator; else empty.
    std::string layoutProblem;

    // 1 - peak allocated / peak reserved (GMLake's definition); 0 when nothing was reserved.
    double fragmentation() const
    {
        return peakReserved > 0 ? 1.0 - static_cast<double>(peakAllocated) / static_cast<double>(peakReserved) : 0.0;
    }
    bool operator==(const AllocationSummary &) const = default;
};

} // namespace rematlens
