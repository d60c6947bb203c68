#pragma once

#include "../trace/program.h"

#include <string_view>

namespace rematlens {

// One eviction or rematerialization, as simrd's reference events list them.
struct ReplayEvent {
    enum class Kind : std::uint8_t {
        Evict, // chosen by the policy; clock and memory just before
        Free,  // on release (or banishing); clock and memory just before
        Remat, // the directly requested tensor; clock and memory just after its operator ran
    };
    Kind kind;
    Cost clock;
    TensorId tensor; // the storage's root tensor for evictions
    Bytes bytes;     // storage size, or the operator's total output size for Remat
    Bytes memory;
};

std::string_view eventKindName(ReplayEvent::Kind kind); // "evict", "free", "remat"

} // namespace rematlens
