#include "impossible_stretch.h"

#include <algorithm>

namespace rematlens {

std::optional<RunResult> impossibleStretch(const Program &program, const RunConfig &config, ByteRange range,
                                           const BudgetWalker &walker, const std::atomic<bool> *cancel)
{
    // Under an allocator model the replays below the floor are walked: each fails at its own
    // allocation with the allocator's account of it, as `run` reports it (and after-op coupling
    // has no floor: its budget is soft).
    if (!config.allocator.isSum())
        return std::nullopt;
    const std::optional<FitFloor> floor = fitFloor(program, config.runtime);
    if (!floor || floor->bytes <= range.from || range.empty())
        return std::nullopt;
    const RunResult atFloor = walker.replayAt(floor->bytes, cancel);
    if (!isResolved(atFloor.outcome))
        return std::nullopt;
    const Bytes end = std::clamp(atFloor.interval.lo, range.from, floor->bytes);
    if (end == range.from)
        return std::nullopt;
    return impossibleResult(program, *floor, BudgetInterval{range.from, end});
}

} // namespace rematlens
