#pragma once

#include "commands.h"

#include "core/schedule/schedule_graph.h"
#include "core/sim/baseline.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace rematlens {

// One budget of optimal or checkpoint: the ratio as typed and its bytes, as run computes them.
struct ScheduleBudget {
    std::string ratioText;
    double ratio = 0;
    Bytes bytes = 0;
};

// The budgets --ratio or --from/--to/--step name; an error message when they are malformed.
std::optional<std::vector<ScheduleBudget>> scheduleBudgets(const ScheduleOptions &options, const Baseline &baseline,
                                                           std::string &error);

// What both commands say of the graph first: its size, fixed memory, cost and the peak of
// computing everything once (no recomputation), beside the replay's baseline.
nlohmann::ordered_json graphSummaryJson(const std::string &traceName, const ScheduleGraph &graph,
                                        const Baseline &baseline);
std::string graphSummaryText(const std::string &traceName, const ScheduleGraph &graph, const Baseline &baseline);

} // namespace rematlens
