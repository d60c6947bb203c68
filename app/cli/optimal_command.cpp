// rematlens optimal: Checkmate's optimal rematerialization schedule per budget, solved with CBC,
// every schedule checked by the executor; optionally the smallest budget any schedule fits.
#include "commands.h"
#include "app/requests/request_reporter.h"
#include "app/reports/run_report.h"
#include "app/requests/schedule_budgets.h"

#include "core/schedule/budget_schedules.h"
#include "core/schedule/checkmate_milp.h"
#include "core/schedule/feasibility_threshold.h"
#include "core/schedule/schedule_executor.h"

#include <chrono>
#include <cstdio>
#include <iostream>

namespace rematlens {

namespace {

using Json = nlohmann::ordered_json;

constexpr std::size_t kMaxVariables = BudgetSchedules::kMaxVariables;

struct BudgetAnswer {
    ScheduleBudget budget;
    MilpSolution solution;
    LpBound lp;
    ScheduleEvaluation checked; // the solver's schedule run by the executor
    Bytes fitFloor = 0;         // the graph's: below it, infeasible with no model built
};

Json answerJson(const BudgetAnswer &a, Cost graphCost)
{
    Json j{{"ratio", a.budget.ratioText},
           {"budget", a.budget.bytes},
           {"status", solveStatusName(a.solution.status)},
           {"seconds", a.solution.seconds},
           {"lp_feasible", a.lp.feasible},
           {"lp_timed_out", a.lp.timedOut},
           {"lp_bound", a.lp.cost},
           {"lp_seconds", a.lp.seconds}};
    if (a.solution.belowFitFloor)
        j["below_fit_floor"] = a.fitFloor;
    if (a.solution.schedule) {
        j["cost"] = a.solution.cost;
        j["overhead"] = graphCost > 0 ? a.solution.cost / double(graphCost) : 1.0;
        j["gap"] = a.solution.gap;
        j["checked"] = Json{{"valid", a.checked.valid},
                            {"peak", a.checked.peak},
                            {"cost", a.checked.cost},
                            {"fits", a.checked.valid && a.checked.peak <= a.budget.bytes}};
        if (!a.checked.valid)
            j["checked"]["error"] = a.checked.error;
    }
    return j;
}

std::string answerText(const BudgetAnswer &a, Cost graphCost)
{
    std::string line = "  " + a.budget.ratioText + "  " + groupDigits(a.budget.bytes) + " B  "
                       + solveStatusName(a.solution.status);
    if (a.solution.schedule) {
        line += "  overhead " + fixedDigits(graphCost > 0 ? a.solution.cost / double(graphCost) : 1.0, 4) + "x";
        if (a.solution.status == SolveStatus::Feasible)
            line += "  gap " + fixedDigits(100 * a.solution.gap, 2) + "%";
        line += a.checked.valid && a.checked.peak <= a.budget.bytes
                    ? "  checked: peak " + groupDigits(a.checked.peak) + " B"
                    : "  CHECK FAILED: " + (a.checked.valid ? "peak over the budget" : a.checked.error);
    }
    if (a.solution.belowFitFloor)
        line += "  (below " + groupDigits(a.fitFloor) + " B: some operator's inputs and output do not fit at once)";
    if (a.lp.feasible)
        line += "  LP bound " + fixedDigits(graphCost > 0 ? a.lp.cost / double(graphCost) : 1.0, 4) + "x";
    else if (a.lp.timedOut)
        line += "  LP bound not reached in the time limit";
    else if (a.solution.status != SolveStatus::Infeasible)
        line += "  LP relaxation infeasible";
    return line + "  (" + fixedDigits(a.solution.seconds, 2) + " s)\n";
}

Json thresholdJson(const FeasibilityThreshold &t)
{
    return {{"exact", t.exact},
            {"smallest_feasible", t.provenFeasible},
            {"largest_infeasible", t.provenInfeasible},
            {"probes", t.probes},
            {"seconds", t.seconds}};
}

std::string thresholdText(const FeasibilityThreshold &t, const Baseline &baseline)
{
    const auto ratio = [&](Bytes b) { return fixedDigits(baseline.memory > 0 ? double(b) / double(baseline.memory) : 0, 6); };
    if (t.exact)
        return "  smallest budget any schedule fits: " + groupDigits(t.provenFeasible) + " B (ratio "
               + ratio(t.provenFeasible) + "), " + std::to_string(t.probes) + " probes in " + fixedDigits(t.seconds, 2)
               + " s\n";
    return "  smallest budget any schedule fits: between " + groupDigits(t.provenInfeasible + 1) + " and "
           + groupDigits(t.provenFeasible) + " B (ratios " + ratio(t.provenInfeasible + 1) + " to "
           + ratio(t.provenFeasible) + "; a probe hit the time limit)\n";
}

} // namespace

int runOptimalCommand(const ScheduleOptions &options)
{
    int exitCode = ExitOk;
    const std::optional<ScheduleSetup> setup = prepareSchedule(options, exitCode);
    if (!setup)
        return exitCode;
    const ScheduleGraph &graph = setup->graph;
    const CheckmateMilp milp(graph);
    const MilpSize size = milp.size();
    Json report = graphSummaryJson(*setup);
    report["milp"] = Json{{"variables", size.variables},
                          {"integer_variables", size.integers},
                          {"constraints", size.constraints},
                          {"nonzeros", size.nonzeros}};
    if (!options.json)
        std::cout << graphSummaryText(*setup) << "  MILP: "
                  << groupDigits(std::int64_t(size.variables)) << " variables ("
                  << groupDigits(std::int64_t(size.integers)) << " binary), "
                  << groupDigits(std::int64_t(size.constraints)) << " constraints\n";
    if (size.variables > kMaxVariables) {
        const std::string reason = "the MILP has " + std::to_string(size.variables) + " variables, over the "
                                   + std::to_string(kMaxVariables) + " this command builds";
        if (options.json) {
            report["out_of_reach"] = reason;
            std::cout << report.dump(2) << std::endl;
        } else {
            std::cout << "  out of reach: " << reason << "\n";
        }
        return ExitOk;
    }
    const ScheduleExecutor executor(graph);
    Json answers = Json::array();
    for (const ScheduleBudget &budget : setup->budgets) {
        // --time-limit bounds the whole answer: the LP bound gets what the search left.
        const auto began = std::chrono::steady_clock::now();
        BudgetAnswer a;
        a.budget = budget;
        a.solution = milp.solve(budget.bytes, options.timeLimit);
        a.fitFloor = graph.fitFloor();
        const double left =
            options.timeLimit - std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
        if (a.solution.status != SolveStatus::Infeasible)
            a.lp = left > 0 ? milp.lpBound(budget.bytes, left) : LpBound{false, true, 0, 0};
        if (a.solution.schedule)
            a.checked = executor.run(a.solution.schedule->toSchedule(graph));
        if (options.json)
            answers.push_back(answerJson(a, graph.totalCost()));
        else
            std::cout << answerText(a, graph.totalCost()) << std::flush;
    }
    std::optional<FeasibilityThreshold> threshold;
    if (options.threshold)
        threshold = ThresholdSearch(graph).run(options.timeLimit);
    if (options.json) {
        report["budgets"] = answers;
        if (threshold)
            report["threshold"] = thresholdJson(*threshold);
        std::cout << report.dump(2) << std::endl;
    } else if (threshold) {
        std::cout << thresholdText(*threshold, setup->trace.baseline);
    }
    return ExitOk;
}

} // namespace rematlens
