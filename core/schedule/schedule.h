#pragma once

#include "schedule_graph.h"

#include <vector>

namespace rematlens {

// A sequential schedule: compute a node (its dependencies must be resident) or free one.
struct ScheduleStep {
    enum class Kind : std::uint8_t { Compute, Free };
    Kind kind;
    NodeId node;
};

using Schedule = std::vector<ScheduleStep>;

} // namespace rematlens
