#include "map_summary.h"

#include "../sweep/hole_finder.h"

#include <algorithm>

namespace rematlens {

namespace {

void extend(std::vector<MapStretch> &stretches, Bytes first, Bytes last, Outcome outcome, bool unmapped)
{
    if (!stretches.empty()) {
        MapStretch &previous = stretches.back();
        if (previous.unmapped == unmapped && previous.outcome == outcome && previous.last + 1 == first) {
            previous.last = last;
            previous.intervals += unmapped ? 0 : 1;
            return;
        }
    }
    stretches.push_back(MapStretch{first, last, outcome, unmapped, unmapped ? 0u : 1u});
}

std::vector<MapStretch> stretchesOf(ByteRange range, const std::vector<RunResult> &sorted,
                                    const std::vector<ByteRange> &unmapped, std::size_t &intervals)
{
    std::vector<MapStretch> stretches;
    auto gap = unmapped.begin();
    Bytes next = range.from;
    auto fillGapsBelow = [&](Bytes bound) {
        for (; gap != unmapped.end() && gap->from < bound; ++gap) {
            extend(stretches, gap->from, gap->end - 1, Outcome::Timeout, true);
            next = std::max(next, gap->end);
        }
    };
    for (const RunResult &r : sorted) {
        const Bytes first = std::max(r.interval.lo, next);
        const Bytes end = r.interval.hi ? std::min(*r.interval.hi, range.end) : range.end;
        if (first >= end)
            continue;
        fillGapsBelow(first);
        extend(stretches, first, end - 1, r.outcome, false);
        ++intervals;
        next = end;
    }
    fillGapsBelow(range.end);
    return stretches;
}

} // namespace

std::vector<RunResult> sortedIntervals(std::vector<RunResult> intervals)
{
    std::stable_sort(intervals.begin(), intervals.end(),
                     [](const RunResult &a, const RunResult &b) { return a.interval.lo < b.interval.lo; });
    intervals.erase(std::unique(intervals.begin(), intervals.end(),
                                [](const RunResult &a, const RunResult &b) { return a.interval == b.interval; }),
                    intervals.end());
    return intervals;
}

MapSummary summarizeMap(ByteRange range, const std::vector<RunResult> &sorted)
{
    MapSummary summary;
    summary.range = range;
    std::vector<BudgetInterval> known;
    for (const RunResult &r : sorted)
        known.push_back(r.interval);
    summary.unmapped = uncoveredRanges(range, known);
    summary.stretches = stretchesOf(range, sorted, summary.unmapped, summary.intervals);

    // Stretches are the points of a grid whose holes are exactly the map's.
    std::vector<BudgetOutcome> points;
    for (const MapStretch &s : summary.stretches)
        points.push_back(BudgetOutcome{0, s.first, s.outcome});
    const HoleReport report = findHoles(points);
    if (report.firstSuccess)
        summary.firstPass = summary.stretches[*report.firstSuccess].first;
    if (report.stableFrom)
        summary.stableFrom = summary.stretches[*report.stableFrom].first;
    for (std::size_t i : report.failuresAboveFirstSuccess)
        summary.failuresAboveFirstPass.push_back(summary.stretches[i]);
    for (const Hole &hole : report.holes)
        summary.holes.push_back(MapHole{summary.stretches[hole.firstFail].first, summary.stretches[hole.lastFail].last});
    for (const auto &[first, last] : report.unresolvedGaps) {
        const bool fails = std::any_of(summary.stretches.begin() + static_cast<std::ptrdiff_t>(first),
                                       summary.stretches.begin() + static_cast<std::ptrdiff_t>(last) + 1,
                                       [](const MapStretch &s) { return !s.unmapped && isFailure(s.outcome); });
        if (fails)
            summary.undecided.push_back(MapStretch{summary.stretches[first].first, summary.stretches[last].last,
                                                   Outcome::Timeout, true, 0});
    }
    const bool unmappedAbovePass = std::any_of(summary.unmapped.begin(), summary.unmapped.end(), [&](const ByteRange &g) {
        return !summary.firstPass || g.end > *summary.firstPass;
    });
    if (!summary.failuresAboveFirstPass.empty())
        summary.verdict = MonotoneVerdict::NotMonotone;
    else if (unmappedAbovePass)
        summary.verdict = MonotoneVerdict::Undetermined;
    return summary;
}

const char *verdictName(MonotoneVerdict verdict)
{
    switch (verdict) {
    case MonotoneVerdict::Monotone: return "monotone";
    case MonotoneVerdict::NotMonotone: return "not monotone";
    case MonotoneVerdict::Undetermined: return "undetermined";
    }
    return "undetermined";
}

} // namespace rematlens
