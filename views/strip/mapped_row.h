#pragma once

#include "core/map/map_summary.h"

#include <vector>

namespace rematlens {

// One policy's exact map as the strip draws it: its intervals (sorted by lo) and their summary
// over the budgets asked for, whose holes have exact byte bounds and whose unmapped gaps are the
// budgets a cancelled or stopped walk never reached.
struct MappedRow {
    std::vector<RunResult> intervals;
    MapSummary summary;

    static MappedRow build(ByteRange range, std::vector<RunResult> intervals);
    // `base` (none for a new map) with more intervals over `range`: the range becomes the
    // smallest one holding both. Large maps take a while: build them off the GUI thread.
    static MappedRow merged(const MappedRow *base, ByteRange range, std::vector<RunResult> intervals);
    // The interval holding this budget, if mapped.
    const RunResult *intervalAt(Bytes budget) const;
    // Its index in `intervals`, for stepping through them.
    std::optional<std::size_t> indexAt(Bytes budget) const;
    bool covers(Bytes budget) const { return budget >= summary.range.from && budget < summary.range.end; }
};

} // namespace rematlens
