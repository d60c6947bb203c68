#pragma once

#include "../sim/run_recording.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace rematlens {

// What one run did from the first divergence on (the divergent event included).
struct RunTail {
    std::int64_t evictions = 0; // chosen by the policy
    std::int64_t remats = 0;
    int peakDepth = 0; // deepest nesting of materializations among those events
};

// Where two runs' locked bytes first differ by more than the threshold, at the end of a model step.
struct LockedDivergence {
    std::uint32_t step = 0;
    Bytes a = 0;
    Bytes b = 0;
};

// Where two runs of one program (under two budgets, say) stop doing the same thing. The runs are
// compared on their reference event streams (evictions by the policy, evictions on release and
// rematerializations, in order), the events simrd's reference files list.
struct RunDiff {
    std::optional<std::size_t> firstDivergence; // index into both streams; none when they are equal
    std::optional<ReplayEvent> a;               // the events at that index; none where a stream ended
    std::optional<ReplayEvent> b;
    std::optional<LockedDivergence> locked;
    RunTail tailA;
    RunTail tailB;
};

inline constexpr Bytes kDefaultLockedThreshold = Bytes{256} << 20;

// The events simrd's reference files list (everything but the model's own calls), in order.
std::vector<ReplayEvent> referenceEvents(const RunRecording &recording);

RunDiff diffRuns(const RunRecording &a, const RunRecording &b, Bytes lockedThreshold = kDefaultLockedThreshold);

} // namespace rematlens
