#include "views/strip/mapped_row.h"

#include <algorithm>

namespace rematlens {

MappedRow MappedRow::build(ByteRange range, std::vector<RunResult> intervals)
{
    MappedRow row;
    row.intervals = sortedIntervals(std::move(intervals));
    row.summary = summarizeMap(range, row.intervals);
    return row;
}

MappedRow MappedRow::merged(const MappedRow *base, ByteRange range, std::vector<RunResult> intervals)
{
    if (!base)
        return build(range, std::move(intervals));
    intervals.insert(intervals.end(), base->intervals.begin(), base->intervals.end());
    const ByteRange known = base->summary.range;
    return build(ByteRange{std::min(range.from, known.from), std::max(range.end, known.end)}, std::move(intervals));
}

std::optional<std::size_t> MappedRow::indexAt(Bytes budget) const
{
    // The last interval starting at or below the budget is the only one that can hold it.
    const auto after = std::upper_bound(intervals.begin(), intervals.end(), budget,
                                        [](Bytes b, const RunResult &r) { return b < r.interval.lo; });
    if (after == intervals.begin())
        return std::nullopt;
    const auto index = static_cast<std::size_t>(after - intervals.begin() - 1);
    if (!intervals[index].interval.contains(budget))
        return std::nullopt;
    return index;
}

const RunResult *MappedRow::intervalAt(Bytes budget) const
{
    const std::optional<std::size_t> index = indexAt(budget);
    return index ? &intervals[*index] : nullptr;
}

} // namespace rematlens
