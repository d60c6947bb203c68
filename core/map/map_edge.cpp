#include "map_edge.h"

#include "../sim/replay.h"

#include <tbb/parallel_for.h>

#include <algorithm>

namespace rematlens {

namespace {

bool passFailBoundary(const MapStretch &a, const MapStretch &b)
{
    return !a.unmapped && !b.unmapped && a.last + 1 == b.first
           && ((a.outcome == Outcome::Pass && isFailure(b.outcome)) || (isFailure(a.outcome) && b.outcome == Outcome::Pass));
}

RunResult recordAt(const Program &program, RunConfig config, Bytes budget, RunRecording &recording,
                   const std::atomic<bool> *cancel)
{
    config.budget = budget;
    config.recording = &recording;
    config.cancel = cancel;
    return Replay(program, config).run();
}

} // namespace

std::vector<MapEdge> explainEdges(const Program &program, const RunConfig &config, const MapSummary &summary,
                                  const std::atomic<bool> *cancel)
{
    std::vector<MapEdge> edges;
    for (std::size_t i = 0; i + 1 < summary.stretches.size(); ++i) {
        if (!passFailBoundary(summary.stretches[i], summary.stretches[i + 1]))
            continue;
        MapEdge edge;
        edge.below = summary.stretches[i].last;
        edge.above = summary.stretches[i + 1].first;
        edges.push_back(std::move(edge));
    }
    // The edge's own replays give the intervals and the flip, so a map read back from a file
    // (whose records keep neither) is explained the same way.
    std::atomic<bool> broken = false;
    tbb::parallel_for(std::size_t{0}, edges.size(), [&](std::size_t k) {
        MapEdge &edge = edges[k];
        RunRecording below;
        RunRecording above;
        edge.belowRun = recordAt(program, config, edge.below, below, cancel);
        edge.aboveRun = recordAt(program, config, edge.above, above, cancel);
        if (!isResolved(edge.belowRun.outcome) || !isResolved(edge.aboveRun.outcome) || !edge.belowRun.flip
            || edge.belowRun.interval.hi != edge.above) {
            broken = true; // cancelled, or the map does not belong to this configuration
            return;
        }
        edge.flip = *edge.belowRun.flip;
        edge.diff = diffRuns(below, above);
    });
    if (broken)
        return {};
    return edges;
}

} // namespace rematlens
