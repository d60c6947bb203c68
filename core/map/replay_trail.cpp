#include "replay_trail.h"

#include <algorithm>
#include <limits>

namespace rematlens {

void ReplayTrail::addFrom(const ReplayTrail &other, std::size_t from, std::size_t to)
{
    for (std::size_t i = from; i <= to; ++i)
        m_entries.push_back(other.m_entries[i]);
}

void ReplayTrail::finish(ReplaySegment last, RunResult end)
{
    m_last = last;
    m_end = std::move(end);
}

void ReplayTrail::finishAs(const ReplayTrail &other)
{
    m_last = other.m_last;
    m_end = other.m_end;
}

std::size_t ReplayTrail::reachable(std::size_t from, Bytes budget) const
{
    std::size_t k = from;
    while (k + 1 < m_entries.size() && m_entries[k + 1].segment.compatibleWith(budget))
        ++k;
    if (k + 1 == m_entries.size() && m_last.compatibleWith(budget))
        return m_entries.size();
    return k;
}

std::optional<std::size_t> ReplayTrail::find(const Replay &replay, std::size_t &next) const
{
    const std::size_t step = replay.step();
    while (next < m_entries.size() && m_entries[next].position.step < step)
        ++next;
    if (next == m_entries.size() || m_entries[next].position.step != step)
        return std::nullopt; // most waypoints: no entry at this step
    const ReplayPosition here = replay.position();
    for (std::size_t i = next; i < m_entries.size() && m_entries[i].position.step == step; ++i)
        if (m_entries[i].position == here)
            return i;
    return std::nullopt;
}

// Counts add up; the peak is the largest; lo is the largest demand that fitted, hi the
// smallest that did not, and the flip the first comparison at hi, its counts made whole.
RunResult ReplayTrail::resultUnder(Bytes budget) const
{
    RunResult result = m_end;
    result.evictions = result.releasedEvictions = result.remats = result.heuristicEvals = 0;
    result.maxMemory = result.bottleneck = 0;
    if (result.allocation)
        result.allocation->peakReserved = result.allocation->peakAllocated = result.allocation->cacheFlushes = 0;
    Bytes lo = 0;
    Bytes hi = std::numeric_limits<Bytes>::max();
    std::optional<FlippingComparison> flip;
    const auto fold = [&](const ReplaySegment &s) {
        if (s.smallestOver < hi) {
            hi = s.smallestOver;
            flip = s.flip;
            flip->rematsBefore += result.remats;
            flip->runEvictionsBefore += result.evictions;
        }
        lo = std::max(lo, s.largestFitted);
        result.evictions += s.evictions;
        result.releasedEvictions += s.releasedEvictions;
        result.remats += s.remats;
        result.heuristicEvals += s.heuristicEvals;
        result.maxMemory = std::max(result.maxMemory, s.maxMemory);
        result.bottleneck = std::max(result.bottleneck, s.bottleneck);
        if (result.allocation) {
            result.allocation->peakReserved = std::max(result.allocation->peakReserved, s.peakReserved);
            result.allocation->peakAllocated = std::max(result.allocation->peakAllocated, s.peakAllocated);
            result.allocation->cacheFlushes += s.cacheFlushes;
        }
    };
    for (std::size_t i = 1; i < m_entries.size(); ++i)
        fold(m_entries[i].segment);
    fold(m_last);
    result.interval.lo = lo;
    result.interval.hi.reset();
    result.flip.reset();
    if (hi != std::numeric_limits<Bytes>::max()) {
        result.interval.hi = hi;
        result.flip = flip;
    }
    if (result.failure)
        result.failure->restateAt(budget);
    return result;
}

} // namespace rematlens
