#pragma once

#include "hole_anatomy.h"

#include "../map/map_summary.h"

#include <optional>
#include <vector>

namespace rematlens {

// How many holes of a map one mechanism opens, and how many budget bytes they hold.
struct HoleClassCount {
    HoleMechanism mechanism = HoleMechanism::Other;
    std::size_t holes = 0;
    Bytes bytes = 0;
};

// Every hole of a map explained and classified.
struct HoleCensus {
    std::vector<MapHole> holes;                      // as the map's summary lists them
    std::vector<std::optional<HoleAnatomy>> anatomies; // none for a hole with unmapped budgets inside
    std::vector<HoleClassCount> classes;             // the mechanisms found, most holes first
    std::size_t replays = 0;
};

// Explains the summary's holes in parallel (without progress reports: they would interleave).
HoleCensus takeCensus(const HoleAnatomist &anatomist, const MapSummary &summary, AnatomyOptions options);

} // namespace rematlens
