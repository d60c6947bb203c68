#include "app/requests/schedule_budgets.h"
#include "app/requests/request_reporter.h"
#include "app/requests/loaded_trace.h"

#include "app/reports/run_report.h"

#include "core/schedule/schedule_executor.h"
#include "core/schedule/staged_schedule.h"
#include "core/sweep/decimal_grid.h"

namespace rematlens {

namespace {

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

} // namespace

std::optional<ScheduleSetup> prepareSchedule(const ScheduleOptions &options, int &exitCode)
{
    std::optional<LoadedTrace> loaded = loadWithBaseline(options.trace);
    if (!loaded) {
        exitCode = ExitBadInput;
        return std::nullopt;
    }
    std::string error;
    std::optional<std::vector<ScheduleBudget>> budgets = scheduleBudgets(options, loaded->baseline, error);
    if (!budgets) {
        exitCode = reportError(ExitBadUsage, error);
        return std::nullopt;
    }
    ScheduleGraph graph = ScheduleGraph::fromProgram(*loaded->program);
    const Bytes peak = ScheduleExecutor(graph).run(ScheduleExecutor::computeOnce(graph)).peak;
    return ScheduleSetup{std::move(*loaded), std::move(*budgets), std::move(graph), peak};
}

nlohmann::ordered_json graphSummaryJson(const ScheduleSetup &setup)
{
    const ScheduleGraph &graph = setup.graph;
    return {{"trace", setup.trace.name},
            {"nodes", graph.size()},
            {"edges", graph.edgeCount()},
            {"fixed_bytes", graph.fixedBytes()},
            {"graph_cost", graph.totalCost()},
            {"compute_once_peak", setup.computeOncePeak},
            {"baseline_memory", setup.trace.baseline.memory},
            {"baseline_compute", setup.trace.baseline.compute}};
}

std::string graphSummaryText(const ScheduleSetup &setup)
{
    const ScheduleGraph &graph = setup.graph;
    return setup.trace.name + ": " + groupDigits(static_cast<std::int64_t>(graph.size())) + " operators, "
           + groupDigits(static_cast<std::int64_t>(graph.edgeCount())) + " edges, fixed memory "
           + groupDigits(graph.fixedBytes()) + " B\n  computing everything once peaks at "
           + groupDigits(setup.computeOncePeak) + " B (the replay's baseline: "
           + groupDigits(setup.trace.baseline.memory)
           + " B)\n";
}

} // namespace rematlens
