#pragma once

#include "command_support.h"
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

// What optimal and checkpoint start from: the trace, the budgets the options name, the trace's
// graph and the peak of computing everything once (no recomputation).
struct ScheduleSetup {
    LoadedTrace trace;
    std::vector<ScheduleBudget> budgets;
    ScheduleGraph graph;
    Bytes computeOncePeak = 0;
};

// Reads the trace and the budgets (--ratio or --from/--to/--step); on a bad trace or malformed
// budgets it reports the error, sets exitCode and returns nothing.
std::optional<ScheduleSetup> prepareSchedule(const ScheduleOptions &options, int &exitCode);

// What both commands say of the graph first: its size, fixed memory, cost and the peak of
// computing everything once, beside the replay's baseline.
nlohmann::ordered_json graphSummaryJson(const ScheduleSetup &setup);
std::string graphSummaryText(const ScheduleSetup &setup);

} // namespace rematlens
