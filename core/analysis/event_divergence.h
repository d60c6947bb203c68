#pragma once

#include "../sim/run_recording.h"

#include <optional>

namespace rematlens {

// Where two runs' histories separate: the first position in their streams of policy
// evictions, evictions on release and rematerializations (model computes left out) at which
// the kind, tensor or bytes differ, or one stream ends before the other. Empty when they agree.
struct EventDivergence {
    std::size_t index;   // position in the reference-kind stream
    std::optional<std::size_t> a; // index into the first recording's events, if it has one there
    std::optional<std::size_t> b;
};

std::optional<EventDivergence> findEventDivergence(const RunRecording &a, const RunRecording &b);

} // namespace rematlens
