// rematlens compare: several policies over one budget grid, side by side: where each first
// passes, where it passes for good, its failures above its first success, and its overhead
// against the first policy's on the budgets where every policy passes.
#include "commands.h"
#include "app/requests/loaded_trace.h"
#include "app/requests/grid_options.h"
#include "app/requests/request_reporter.h"
#include "app/requests/progress_bar.h"
#include "app/reports/run_report.h"
#include "app/formats/sweep_file.h"

#include "core/sweep/policy_comparison.h"
#include "core/sweep/sweep_runner.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sstream>

namespace rematlens {

namespace {

using Json = nlohmann::ordered_json;

struct CompareContext {
    const SweepSettings &settings;
    const std::vector<GridPoint> &grid;
    const std::vector<PolicyRuns> &runs;
    const PolicyComparison &comparison;
};

Json ratioOrNull(const std::vector<GridPoint> &grid, const std::optional<std::size_t> &column)
{
    return column ? Json(grid[*column].ratio) : Json();
}

Json optionalNumber(const std::optional<double> &value)
{
    return value ? Json(*value) : Json();
}

Json compareToJson(const CompareContext &c, const Baseline &baseline)
{
    Json policies = Json::array();
    for (std::size_t p = 0; p < c.comparison.rows.size(); ++p) {
        const PolicyComparisonRow &row = c.comparison.rows[p];
        Json failures = Json::array();
        for (std::size_t column : row.holes.failuresAboveFirstSuccess)
            failures.push_back(c.grid[column].ratio);
        Json worst;
        if (row.worst && p > 0)
            worst = Json{{"ratio", c.grid[row.worst->column].ratio},
                         {"budget", c.runs[p].outcomes[row.worst->column].budget},
                         {"overhead_ratio", row.worst->ratio}};
        policies.push_back(Json{{"policy", c.settings.policies[p].name},
                                {"first_success", ratioOrNull(c.grid, row.holes.firstSuccess)},
                                {"stable_from", ratioOrNull(c.grid, row.holes.stableFrom)},
                                {"failures_above_first_success", failures},
                                {"holes", row.holes.holes.size()},
                                {"mean_overhead", optionalNumber(row.meanOverhead)},
                                {"geomean_overhead_ratio", optionalNumber(row.geomeanRatio)},
                                {"worst_regression", worst}});
    }
    return Json{{"trace", c.settings.trace},
                {"runtime", std::string(simrdRuntimeName(c.settings.runtime))},
                {"overhead_limit", c.settings.overheadLimit},
                {"baseline_memory", baseline.memory},
                {"baseline_compute", baseline.compute},
                {"budgets", c.grid.size()},
                {"reference", c.settings.policies.front().name},
                {"all_pass_budgets", c.comparison.commonPasses.size()},
                {"policies", policies}};
}

std::string cellOf(const std::vector<GridPoint> &grid, const std::optional<std::size_t> &column)
{
    return column ? grid[*column].text : "-";
}

std::string padded(const std::string &text, std::size_t width)
{
    return text.size() >= width ? text + " " : text + std::string(width - text.size(), ' ');
}

std::string compareToText(const CompareContext &c)
{
    std::size_t nameWidth = 8;
    for (const Policy &policy : c.settings.policies)
        nameWidth = std::max(nameWidth, policy.name.size() + 2);
    std::ostringstream out;
    out << c.settings.trace << ", " << runtimeName(c.settings.runtime) << " runtime, " << c.grid.size()
        << " budgets from " << c.grid.front().text << " to " << c.grid.back().text << "; overheads on the "
        << c.comparison.commonPasses.size() << " budgets where every policy passes, against "
        << c.settings.policies.front().name << "\n";
    out << padded("policy", nameWidth) << padded("first", 8) << padded("stable", 8) << padded("fails above", 13)
        << padded("mean ovh", 10) << padded("geomean", 9) << "worst (budget: ratio)\n";
    for (std::size_t p = 0; p < c.comparison.rows.size(); ++p) {
        const PolicyComparisonRow &row = c.comparison.rows[p];
        out << padded(c.settings.policies[p].name, nameWidth) << padded(cellOf(c.grid, row.holes.firstSuccess), 8)
            << padded(cellOf(c.grid, row.holes.stableFrom), 8)
            << padded(std::to_string(row.holes.failuresAboveFirstSuccess.size()), 13)
            << padded(row.meanOverhead ? fixedDigits(*row.meanOverhead, 4) : "-", 10)
            << padded(row.geomeanRatio ? fixedDigits(*row.geomeanRatio, 4) : "-", 9);
        if (p == 0)
            out << "(reference)";
        else if (row.worst)
            out << c.grid[row.worst->column].text << ": " << fixedDigits(row.worst->ratio, 4);
        else
            out << "-";
        out << "\n";
    }
    for (std::size_t p = 0; p < c.comparison.rows.size(); ++p) {
        const auto &failures = c.comparison.rows[p].holes.failuresAboveFirstSuccess;
        if (failures.empty())
            continue;
        out << "  " << c.settings.policies[p].name << " fails above its first success at";
        for (std::size_t column : failures)
            out << " " << c.grid[column].text;
        out << "\n";
    }
    return out.str();
}

} // namespace

namespace {

// The runs of a comparison, filled from the --out file's records and from replays.
struct ComparedRuns {
    const std::vector<RunRequest> &requests;
    std::size_t columns;
    Cost baselineCompute;
    std::vector<PolicyRuns> runs;

    ComparedRuns(const std::vector<RunRequest> &planned, std::size_t policies, std::size_t gridSize, Cost compute)
        : requests(planned), columns(gridSize), baselineCompute(compute), runs(policies)
    {
        for (PolicyRuns &policy : runs) {
            policy.outcomes.resize(columns);
            policy.overheads.resize(columns, 0.0);
        }
    }

    void take(std::size_t i, const RunResult &result)
    {
        const std::size_t p = i / columns;
        const std::size_t column = i % columns;
        runs[p].outcomes[column] = BudgetOutcome{requests[i].ratio, requests[i].config.budget, result.outcome};
        runs[p].overheads[column] =
            baselineCompute > 0 ? static_cast<double>(result.clock) / static_cast<double>(baselineCompute) : 0.0;
    }
};

// Opens --out (refusing a file of another comparison or sweep) and takes the runs it holds;
// the indices of the requests still to run, or an error.
std::optional<std::vector<std::size_t>> resumeFrom(const CompareOptions &options, const SweepSettings &settings,
                                                   SweepFile &file, ComparedRuns &compared, std::string &error)
{
    std::vector<std::size_t> todo;
    if (!settings.allocator.isSum() && SweepFile::formatFor(options.outPath) == SweepFile::Format::Csv) {
        error = "--allocator with --out needs a .jsonl file (CSV records have no allocator columns)";
        return std::nullopt;
    }
    if (!options.outPath.empty()) {
        const std::optional<Provenance> provenance =
            Provenance::describe(options.grid.trace, settings, gridScope(options.grid), error);
        if (!provenance)
            return std::nullopt;
        file.setHeader(*provenance);
        if (!file.open(options.outPath, error))
            return std::nullopt;
    }
    for (std::size_t i = 0; i < compared.requests.size(); ++i) {
        const SweepFile::Record *record = options.outPath.empty() ? nullptr : file.find(SweepFile::keyFor(compared.requests[i]));
        if (record)
            compared.take(i, runFromJson(*record));
        else
            todo.push_back(i);
    }
    return todo;
}

} // namespace

int runCompareCommand(const CompareOptions &options)
{
    SweepSettings settings;
    std::vector<GridPoint> grid;
    if (const std::string problem = prepareGrid(options.grid, settings, grid); !problem.empty())
        return reportError(ExitBadUsage, problem);
    if (options.grid.policies.size() < 2)
        return reportError(ExitBadUsage, "compare needs at least two --policy (the first is the reference)");
    if (!options.outPath.empty() && !SweepFile::formatFor(options.outPath))
        return reportError(ExitBadUsage, "--out expects a .jsonl or .csv file, got " + options.outPath);
    const std::optional<LoadedTrace> loaded = loadWithBaseline(options.grid.trace);
    if (!loaded)
        return ExitBadInput;
    settings.trace = loaded->name;

    const std::vector<RunRequest> requests = planSweep(settings, loaded->baseline, grid);
    ComparedRuns compared(requests, settings.policies.size(), grid.size(), loaded->baseline.compute);
    SweepFile file;
    std::string error;
    const std::optional<std::vector<std::size_t>> todo = resumeFrom(options, settings, file, compared, error);
    if (!todo)
        return reportError(ExitBadInput, error);
    std::vector<RunRequest> toRun;
    for (std::size_t i : *todo)
        toRun.push_back(requests[i]);
    ProgressBar bar("compare", toRun.size());
    SweepRunner runner(loaded->program, options.grid.threads);
    runner.setWallLimit(options.grid.wallLimit);
    std::size_t done = 0;
    bool writeFailed = false;
    runner.run(toRun, &interruptRequested(), [&](std::size_t j, const RunResult &result) {
        compared.take((*todo)[j], result);
        if (!options.outPath.empty() && result.outcome != Outcome::Cancelled && !writeFailed)
            writeFailed = !file.append(runToJson(toRun[j], result, loaded->baseline), error);
        bar.advance(++done);
    });
    bar.finish();
    if (writeFailed)
        return reportError(ExitBadInput, error);
    if (interruptRequested()) {
        std::cerr << "compare: interrupted; nothing reported."
                  << (options.outPath.empty() ? "" : " The finished runs are in " + options.outPath
                                                         + ": rerun the same command to resume.")
                  << std::endl;
        return ExitInterrupted;
    }
    if (!options.outPath.empty() && !file.finish(error))
        return reportError(ExitBadInput, error);
    const PolicyComparison comparison = comparePolicies(compared.runs);
    const CompareContext context{settings, grid, compared.runs, comparison};
    if (options.json)
        std::cout << compareToJson(context, loaded->baseline).dump(2) << std::endl;
    else
        std::cout << compareToText(context);
    return ExitOk;
}

} // namespace rematlens
