// rematlens checkpoint: static checkpointing (Chen et al. 2016) per budget, each plan run by the
// schedule executor to its exact peak and compute.
#include "commands.h"
#include "app/requests/request_reporter.h"
#include "app/reports/run_report.h"
#include "app/requests/schedule_budgets.h"

#include "core/schedule/checkpoint_planner.h"

#include <cstdio>
#include <iostream>

namespace rematlens {

namespace {

using Json = nlohmann::ordered_json;

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
           + " B, overhead " + fixedDigits(plan->evaluation.overhead, 4) + "x, "
           + std::to_string(plan->checkpoints.size()) + " checkpoints)";
}

} // namespace

int runCheckpointCommand(const ScheduleOptions &options)
{
    int exitCode = ExitOk;
    const std::optional<ScheduleSetup> setup = prepareSchedule(options, exitCode);
    if (!setup)
        return exitCode;
    const ScheduleGraph &graph = setup->graph;
    const CheckpointPlanner planner(graph);
    const CheckpointPlan sqrtN = planner.sqrtN();
    const std::vector<CheckpointPlan> greedy = planner.greedyFamily();
    Json report = graphSummaryJson(*setup);
    report["candidates"] = planner.candidates().size();
    report["greedy_plans"] = greedy.size();
    if (!options.json)
        std::cout << graphSummaryText(*setup) << "  "
                  << planner.candidates().size() << " checkpoint candidates; " << greedy.size()
                  << " distinct greedy plans\n";
    Json answers = Json::array();
    for (const ScheduleBudget &budget : setup->budgets) {
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
