#pragma once

#include "app/requests/loaded_trace.h"

#include "core/schedule/schedule_graph.h"
#include "core/sim/baseline.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace rematlens {

// rematlens optimal and rematlens checkpoint: budgets as one ratio or a grid of ratios.
struct ScheduleOptions {
    std::string trace;
    std::optional<std::string> ratio;
    std::optional<std::string> from;
    std::optional<std::string> to;
    std::optional<std::string> step;
    double timeLimit = 60;   // optimal: seconds per budget (and per probe of --threshold)
    bool threshold = false;  // optimal: also the smallest budget any schedule fits
    bool json = false;
};


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
