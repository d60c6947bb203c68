#pragma once

#include "../trace/program.h"

#include <cstddef>
#include <cstdint>
#include <functional>

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

struct ReplayPositionHash {
    std::size_t operator()(const ReplayPosition &p) const
    {
        std::uint64_t h = p.materialHash;
        for (const std::uint64_t v : {std::uint64_t(p.step), std::uint64_t(p.clock), std::uint64_t(p.rematCompute),
                                      std::uint64_t(p.memory), std::uint64_t(p.depth)})
            h = (h ^ v) * 0x100000001b3ull;
        return static_cast<std::size_t>(h ^ (h >> 29));
    }
};

} // namespace rematlens
