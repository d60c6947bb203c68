#pragma once

#include "../trace/program.h"

#include <cstdint>
#include <string_view>

namespace rematlens {

// One thing the runtime did. The first three kinds are the ones simrd's reference events list
// (with the same clock and memory); Compute, the model's own operator calls, is RematLens's.
struct ReplayEvent {
    enum class Kind : std::uint8_t {
        Evict,   // chosen by the policy; clock and memory just before
        Free,    // on release (or banishing); clock and memory just before
        Remat,   // the directly requested tensor; clock and memory just after its operator ran
        Compute, // the model's call of an operator; clock and memory just after it ran
    };
    Kind kind;
    std::uint16_t depth; // materializations open at the time; 1 is the model's own call
    std::uint32_t step;  // index into Program::schedule
    Cost clock;
    TensorId tensor;     // the storage's root tensor for evictions
    Bytes bytes;         // storage size, or the operator's total output size for Remat and Compute
    Bytes memory;
};

std::string_view eventKindName(ReplayEvent::Kind kind); // "evict", "free", "remat", "compute"
inline bool isReferenceKind(ReplayEvent::Kind kind) { return kind != ReplayEvent::Kind::Compute; }

} // namespace rematlens
