#include "run_diff.h"

#include <algorithm>
#include <cstdlib>

namespace rematlens {

namespace {

bool sameEventAtSameClock(const ReplayEvent &x, const ReplayEvent &y)
{
    return x.kind == y.kind && x.clock == y.clock && x.tensor == y.tensor && x.bytes == y.bytes;
}

RunTail tailFrom(const std::vector<ReplayEvent> &events, std::size_t from)
{
    RunTail tail;
    for (std::size_t i = from; i < events.size(); ++i) {
        const ReplayEvent &e = events[i];
        tail.evictions += e.kind == ReplayEvent::Kind::Evict;
        tail.remats += e.kind == ReplayEvent::Kind::Remat;
        tail.peakDepth = std::max(tail.peakDepth, static_cast<int>(e.depth));
    }
    return tail;
}

// Locked bytes at the end of every model step the run reached. A step that changed nothing adds
// no sample, so each step holds the value of the last sample at or before it.
std::vector<Bytes> lockedByStep(const std::vector<TimelineSample> &samples)
{
    std::vector<Bytes> locked;
    for (const TimelineSample &s : samples) {
        if (locked.size() <= s.step) {
            const Bytes carried = locked.empty() ? 0 : locked.back();
            locked.resize(s.step + 1, carried);
        }
        locked[s.step] = s.lockedBytes;
    }
    return locked;
}

std::optional<LockedDivergence> firstLockedDivergence(const RunRecording &a, const RunRecording &b, Bytes threshold)
{
    const std::vector<Bytes> lockedA = lockedByStep(a.samples);
    const std::vector<Bytes> lockedB = lockedByStep(b.samples);
    const std::size_t steps = std::min(lockedA.size(), lockedB.size());
    for (std::size_t step = 0; step < steps; ++step)
        if (std::llabs(lockedA[step] - lockedB[step]) > threshold)
            return LockedDivergence{static_cast<std::uint32_t>(step), lockedA[step], lockedB[step]};
    return std::nullopt;
}

} // namespace

std::vector<ReplayEvent> referenceEvents(const RunRecording &recording)
{
    std::vector<ReplayEvent> events;
    for (const ReplayEvent &e : recording.events)
        if (isReferenceKind(e.kind))
            events.push_back(e);
    return events;
}

RunDiff diffRuns(const RunRecording &a, const RunRecording &b, Bytes lockedThreshold)
{
    const std::vector<ReplayEvent> eventsA = referenceEvents(a);
    const std::vector<ReplayEvent> eventsB = referenceEvents(b);
    RunDiff diff;
    const auto [itA, itB] = std::mismatch(eventsA.begin(), eventsA.end(), eventsB.begin(), eventsB.end(), sameEventAtSameClock);
    const auto index = static_cast<std::size_t>(itA - eventsA.begin());
    if (itA != eventsA.end() || itB != eventsB.end()) {
        diff.firstDivergence = index;
        if (itA != eventsA.end())
            diff.a = *itA;
        if (itB != eventsB.end())
            diff.b = *itB;
    }
    diff.tailA = tailFrom(eventsA, index);
    diff.tailB = tailFrom(eventsB, index);
    diff.locked = firstLockedDivergence(a, b, lockedThreshold);
    return diff;
}

} // namespace rematlens
