#pragma once

#include "map_summary.h"

#include "../analysis/run_diff.h"
#include "../sim/run_config.h"

#include <atomic>
#include <vector>

namespace rematlens {

// A pass/fail boundary of the map, explained: with budget `below` the replay takes one path,
// with one byte more (`above`) the comparison `flip` fits and it takes another.
struct MapEdge {
    Bytes below = 0;
    Bytes above = 0;      // below + 1
    RunResult belowRun;   // the intervals on either side
    RunResult aboveRun;
    FlippingComparison flip; // belowRun's comparison at its hi == above
    RunDiff diff;         // where the two replays' evictions and rematerializations separate
};

// Every boundary between a passing and a failing stretch of the map (unmapped stretches have
// none), explained by replaying both sides with a recorder, edges in parallel. Empty when
// cancelled or when a replay disagrees with the map (a map of another configuration).
std::vector<MapEdge> explainEdges(const Program &program, const RunConfig &config, const MapSummary &summary,
                                  const std::atomic<bool> *cancel = nullptr);

} // namespace rematlens
