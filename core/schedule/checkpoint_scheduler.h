#pragma once

#include "schedule.h"

#include <vector>

namespace rematlens {

// Static checkpointing as Chen et al. (2016) run it: the forward pass keeps only the checkpoints
// (every other forward value is freed after its last forward use) and the backward pass
// recomputes what it needs from the nearest resident values, keeping a recomputed value until its
// last use. A checkpoint stays until no value recomputed from it can be needed again.
class CheckpointScheduler {
public:
    explicit CheckpointScheduler(const ScheduleGraph &graph);

    Schedule build(const std::vector<NodeId> &checkpoints) const;

private:
    struct Build;

    const ScheduleGraph &m_graph;
    std::vector<NodeId> m_lastUse;        // the last user, or the node itself
    std::vector<NodeId> m_lastForwardUse; // the last forward user, or the node itself
};

} // namespace rematlens
