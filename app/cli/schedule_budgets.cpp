#include "schedule_budgets.h"

#include "run_report.h"

#include "core/schedule/schedule_executor.h"
#include "core/schedule/staged_schedule.h"
#include "core/sweep/decimal_grid.h"

namespace rematlens {

std::optional<std::vector<ScheduleBudget>> scheduleBudgets(const ScheduleOptions &options, const Baseline &baseline,
                                                           std::string &error)
{
    std::vector<ScheduleBudget> budgets;
    if (options.ratio) {
        const std::optional<double> ratio = DecimalGrid::parseRatio(*options.ratio);
        if (!ratio || *ratio <= 0) {
            error = "--ratio expects a positive number, got \"" + *options.ratio + "\"";
            return std::nullopt;
        }
        budgets.push_back({*options.ratio, *ratio, budgetForRatio(baseline, *ratio)});
        return budgets;
    }
    const std::optional<std::vector<GridPoint>> grid =
        DecimalGrid::make(options.from.value_or(""), options.to.value_or(""), options.step.value_or(""), error);
    if (!grid)
        return std::nullopt;
    for (const GridPoint &p : *grid)
        budgets.push_back({p.text, p.ratio, budgetForRatio(baseline, p.ratio)});
    return budgets;
}

namespace {

Bytes computeOncePeak(const ScheduleGraph &graph)
{
    return ScheduleExecutor(graph).run(ScheduleExecutor::computeOnce(graph)).peak;
}

} // namespace

nlohmann::ordered_json graphSummaryJson(const std::string &traceName, const ScheduleGraph &graph,
                                        const Baseline &baseline)
{
    return {{"trace", traceName},
            {"nodes", graph.size()},
            {"edges", graph.edgeCount()},
            {"fixed_bytes", graph.fixedBytes()},
            {"graph_cost", graph.totalCost()},
            {"compute_once_peak", computeOncePeak(graph)},
            {"baseline_memory", baseline.memory},
            {"baseline_compute", baseline.compute}};
}

std::string graphSummaryText(const std::string &traceName, const ScheduleGraph &graph, const Baseline &baseline)
{
    return traceName + ": " + groupDigits(static_cast<std::int64_t>(graph.size())) + " operators, "
           + groupDigits(static_cast<std::int64_t>(graph.edgeCount())) + " edges, fixed memory "
           + groupDigits(graph.fixedBytes()) + " B\n  computing everything once peaks at "
           + groupDigits(computeOncePeak(graph)) + " B (the replay's baseline: " + groupDigits(baseline.memory)
           + " B)\n";
}

} // namespace rematlens
