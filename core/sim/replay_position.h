#pragma once

#include "../trace/program.h"

#include <cstddef>
#include <cstdint>

namespace rematlens {

// Where a replay stands at a waypoint, cheap to compare: two replays of one program at equal
// positions are likely (not surely) in the same state; Replay::sameState decides.
struct ReplayPosition {
    std::size_t step = 0;
    Cost clock = 0;
    Cost rematCompute = 0;
    Bytes memory = 0;
    std::size_t depth = 0;             // materializations in progress
    std::uint64_t materialHash = 0;    // of the set of material storages

    bool operator==(const ReplayPosition &) const = default;
};

} // namespace rematlens
