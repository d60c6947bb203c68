// rematlens checkpoint: static checkpointing (Chen et al. 2016) per budget, each plan run by the
// schedule executor to its exact peak and compute.
#include "commands.h"
#include "run_report.h"
#include "schedule_budgets.h"

#include "core/schedule/checkpoint_planner.h"

#include <cstdio>
#include <iostream>

namespace rematlens {

namespace {

using Json = nlohmann::ordered_json;

std::string fixed(double value, int digits)
{
    char text[48];
    std::snprintf(text, sizeof text, "%.*f", digits, value);
    return text;
}

Json planJson(const CheckpointPlan *plan, Bytes budget)
{
    if (!plan)
        return Json{{"result", "fail"}};
    Json j{{"result", plan->evaluation.valid && plan->evaluation.peak <= budget ? "pass" : "fail"},
           {"peak", plan->evaluation.peak},
           {"cost", plan->evaluation.cost},
           {"overhead", plan->evaluation.overhead},
           {"checkpoints", plan->checkpoints.size()}};
    if (plan->rule == "greedy")
        j["segment_bytes"] = plan->segmentBytes;
    return j;
}

std::string planText(const char *rule, const CheckpointPlan *plan, Bytes budget)
{
    if (!plan)
        return std::string(rule) + " fail (no plan fits)";
    const bool pass = plan->evaluation.valid && plan->evaluation.peak <= budget;
    return std::string(rule) + (pass ? " pass" : " fail") + " (peak " + groupDigits(plan->evaluation.peak)
           + " B, overhead " + fixed(plan->evaluation.overhead, 4) + "x, "
           + std::to_string(plan->checkpoints.size()) + " checkpoints)";
}

} // namespace

int runCheckpointCommand(const ScheduleOptions &options)
{
    std::string error;
    const std::optional<LoadedTrace> loaded = loadWithBaseline(options.trace);
    if (!loaded)
        return ExitBadInput;
    const std::optional<std::vector<ScheduleBudget>> budgets = scheduleBudgets(options, loaded->baseline, error);
    if (!budgets)
        return reportError(ExitBadUsage, error);
    const ScheduleGraph graph = ScheduleGraph::fromProgram(*loaded->program);
    const CheckpointPlanner planner(graph);
    const CheckpointPlan sqrtN = planner.sqrtN();
    const std::vector<CheckpointPlan> greedy = planner.greedyFamily();
    Json report = graphSummaryJson(loaded->name, graph, loaded->baseline);
    report["candidates"] = planner.candidates().size();
    report["greedy_plans"] = greedy.size();
    if (!options.json)
        std::cout << graphSummaryText(loaded->name, graph, loaded->baseline) << "  "
                  << planner.candidates().size() << " checkpoint candidates; " << greedy.size()
                  << " distinct greedy plans\n";
    Json answers = Json::array();
    for (const ScheduleBudget &budget : *budgets) {
        const CheckpointPlan *best = CheckpointPlanner::cheapestWithin(greedy, budget.bytes);
        if (options.json) {
            answers.push_back(Json{{"ratio", budget.ratioText},
                                   {"budget", budget.bytes},
                                   {"sqrt_n", planJson(&sqrtN, budget.bytes)},
                                   {"greedy", planJson(best, budget.bytes)}});
            continue;
        }
        std::cout << "  " << budget.ratioText << "  " << groupDigits(budget.bytes) << " B  "
                  << planText("sqrt-n", &sqrtN, budget.bytes) << "  " << planText("greedy", best, budget.bytes)
                  << "\n";
    }
    if (options.json) {
        report["budgets"] = answers;
        std::cout << report.dump(2) << std::endl;
    }
    return ExitOk;
}

} // namespace rematlens
