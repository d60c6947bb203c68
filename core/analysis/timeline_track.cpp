#include "timeline_track.h"

#include <algorithm>
#include <cmath>

namespace rematlens {

TimelineTrack::TimelineTrack(const Program &program, const RunRecording &recording, const RunResult &result,
                             Bytes budget, TimelineAxis axis)
    : m_axis(axis), m_budget(budget)
{
    addSamples(recording);
    addEvents(program, recording);
    addFailure(result);
}

void TimelineTrack::addSamples(const RunRecording &recording)
{
    const std::size_t n = recording.samples.size();
    m_xs.reserve(n);
    m_memory.reserve(n);
    m_locked.reserve(n);
    m_depth.reserve(n);
    m_steps.reserve(n);
    for (const TimelineSample &s : recording.samples) {
        m_xs.push_back(timelineX(s, m_axis));
        m_memory.push_back(double(s.memory));
        m_locked.push_back(double(s.lockedBytes));
        m_depth.push_back(double(s.depth));
        m_steps.push_back(s.step);
    }
    if (recording.allocation.size() != n)
        return;
    m_reserved.reserve(n);
    m_allocated.reserve(n);
    for (const AllocationSample &a : recording.allocation) {
        m_reserved.push_back(double(a.reserved));
        m_allocated.push_back(double(a.allocated));
    }
}

// A rematerialization occupies the clock from its operator's start to its end; against steps
// it shades the step it happened in. Touching spans are merged.
void TimelineTrack::addEvents(const Program &program, const RunRecording &recording)
{
    for (std::size_t i = 0; i < recording.events.size(); ++i) {
        const ReplayEvent &e = recording.events[i];
        const double x = timelineX(e, m_axis);
        if (e.kind == ReplayEvent::Kind::Evict || e.kind == ReplayEvent::Kind::Free) {
            if (e.kind == ReplayEvent::Kind::Evict)
                m_evictions.push_back(Marker{x, double(e.memory), i});
            continue;
        }
        if (e.kind != ReplayEvent::Kind::Remat)
            continue;
        const Span span = m_axis == TimelineAxis::Clock
                              ? Span{x - double(program.ops[program.tensors[e.tensor].op].cost), x}
                              : Span{x, x + 1};
        if (!m_rematSpans.empty() && span.from <= m_rematSpans.back().to)
            m_rematSpans.back().to = std::max(m_rematSpans.back().to, span.to);
        else
            m_rematSpans.push_back(span);
    }
}

void TimelineTrack::addFailure(const RunResult &result)
{
    if (!result.failure)
        return;
    const double x = m_axis == TimelineAxis::Step ? double(result.failure->step) : double(result.clock);
    m_failure = FailurePoint{x, double(result.failure->memoryInUse), *result.failure};
}

double TimelineTrack::endX() const
{
    const double last = m_xs.empty() ? 0.0 : m_xs.back();
    return m_failure ? std::max(last, m_failure->x) : last;
}

double TimelineTrack::peakMemory() const
{
    return m_memory.empty() ? 0.0 : *std::max_element(m_memory.begin(), m_memory.end());
}

double TimelineTrack::peakReserved() const
{
    return m_reserved.empty() ? 0.0 : *std::max_element(m_reserved.begin(), m_reserved.end());
}

double TimelineTrack::peakAllocated() const
{
    return m_allocated.empty() ? 0.0 : *std::max_element(m_allocated.begin(), m_allocated.end());
}

int TimelineTrack::peakDepth() const
{
    return m_depth.empty() ? 0 : int(*std::max_element(m_depth.begin(), m_depth.end()));
}

std::size_t TimelineTrack::sampleAt(double x) const
{
    if (m_xs.empty())
        return std::size_t(-1);
    const auto it = std::lower_bound(m_xs.begin(), m_xs.end(), x);
    if (it == m_xs.end())
        return m_xs.size() - 1;
    const std::size_t after = std::size_t(it - m_xs.begin());
    if (after == 0 || std::abs(m_xs[after] - x) <= std::abs(x - m_xs[after - 1]))
        return after;
    return after - 1;
}

std::optional<std::size_t> TimelineTrack::evictionNear(double x, double tolerance) const
{
    const auto it = std::lower_bound(m_evictions.begin(), m_evictions.end(), x - tolerance,
                                     [](const Marker &m, double value) { return m.x < value; });
    std::optional<std::size_t> best;
    for (auto m = it; m != m_evictions.end() && m->x <= x + tolerance; ++m)
        if (!best || std::abs(m->x - x) < std::abs(m_evictions[*best].x - x))
            best = std::size_t(m - m_evictions.begin());
    return best;
}

double TimelineTrack::xOfStep(std::uint32_t step) const
{
    if (m_axis == TimelineAxis::Step)
        return double(step);
    const auto it = std::lower_bound(m_steps.begin(), m_steps.end(), step);
    if (it == m_steps.end())
        return endX();
    return m_xs[std::size_t(it - m_steps.begin())];
}

} // namespace rematlens
