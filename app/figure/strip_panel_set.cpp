#include "strip_panel_set.h"

#include "core/sim/policy_spec.h"

#include "app/requests/loaded_trace.h"
#include "app/requests/request_reporter.h"
#include "app/requests/request_settings.h"
#include "app/requests/grid_options.h"
#include "app/requests/run_options.h"
#include "app/requests/request_reporter.h"
#include "app/requests/progress_bar.h"
#include "app/reports/run_report.h"
#include "app/formats/sweep_file.h"

#include "core/map/budget_walker.h"
#include "core/schedule/budget_schedules.h"
#include "core/sweep/sweep_runner.h"
#include "views/common/trace_name.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>

namespace rematlens {

void StripPanelSet::add(QString title, const Baseline &baseline, std::vector<GridPoint> grid,
                        std::vector<RunRequest> requests, std::size_t policies, double overheadLimit,
                        const std::vector<IndexedResult> &results)
{
    Entry entry{std::move(title), std::make_unique<SweepResultModel>(), std::make_unique<HoleListModel>(),
                std::make_unique<ExactMapModel>(), std::make_unique<ScheduleRowsModel>()};
    entry.sweep->reset(baseline, std::move(grid), std::move(requests), policies, overheadLimit);
    entry.sweep->addResults(results);
    entry.holes->rebuild(*entry.sweep);
    m_entries.push_back(std::move(entry));
}

std::vector<StripFigure::Panel> StripPanelSet::panels(const FigureOptions &options) const
{
    std::vector<StripFigure::Panel> panels;
    for (const Entry &entry : m_entries) {
        StripFigure::Panel panel{entry.title, entry.sweep.get(), entry.holes.get()};
        panel.maps = entry.maps.get();
        panel.schedules = entry.schedules.get();
        setZoom(panel, options);
        panels.push_back(panel);
    }
    return panels;
}

int StripPanelSet::addSweep(const std::string &trace, const FigureOptions &options)
{
    GridOptions gridOptions;
    gridOptions.trace = trace;
    gridOptions.from = options.from;
    gridOptions.to = options.to;
    gridOptions.step = options.step;
    gridOptions.policies = options.policies;
    gridOptions.runtime = options.runtime;
    gridOptions.overheadLimit = options.overheadLimit;
    gridOptions.threads = options.threads;
    gridOptions.wallLimit = options.wallLimit;
    gridOptions.seed = options.seed;
    SweepSettings settings;
    std::vector<GridPoint> grid;
    std::vector<AllocatorConfig> models; // a row per policy and model, not in the grid's settings
    std::string problem = prepareGrid(gridOptions, settings, grid);
    if (problem.empty())
        problem = resolveAllocatorRows(options.allocator, models);
    if (!problem.empty())
        return reportError(ExitBadUsage, problem);
    const std::optional<LoadedTrace> loaded = loadWithBaseline(trace);
    if (!loaded)
        return ExitBadInput;
    settings.trace = loaded->name;
    std::vector<RunRequest> requests = planSweepRows(settings, loaded->baseline, grid, models);

    const QString title = shortTraceName(QString::fromStdString(loaded->name));
    ProgressBar bar(title.toStdString(), requests.size());
    SweepRunner runner(loaded->program, options.threads);
    runner.setWallLimit(options.wallLimit);
    std::vector<IndexedResult> results;
    runner.run(requests, &interruptRequested(), [&](std::size_t i, const RunResult &result) {
        if (result.outcome != Outcome::Cancelled)
            results.push_back({i, result});
        bar.advance(results.size());
    });
    bar.finish();
    if (interruptRequested()) {
        std::cerr << "figure: interrupted; no figure written" << std::endl;
        return ExitInterrupted;
    }
    add(title, loaded->baseline, std::move(grid), std::move(requests), settings.policies.size() * models.size(),
        settings.overheadLimit, results);
    addScheduleRows(*loaded, m_entries.back(), options);
    return options.exact ? addExactMaps(*loaded, m_entries.back(), options) : ExitOk;
}

// The checkpointing and optimal rows, budget by budget, as `rematlens checkpoint` and `optimal`
// answer them.
void StripPanelSet::addScheduleRows(const LoadedTrace &trace, Entry &entry, const FigureOptions &options)
{
    const SweepResultModel &sweep = *entry.sweep;
    entry.schedules->reset(options.checkpointing, options.optimal, sweep.gridSize());
    if (!options.checkpointing && !options.optimal)
        return;
    const BudgetSchedules schedules(*trace.program);
    if (options.optimal && !schedules.optimalDeclined().empty())
        std::cerr << "figure: the optimal row is out of reach: " << schedules.optimalDeclined() << std::endl;
    ProgressBar bar("schedules", sweep.gridSize());
    for (std::size_t column = 0; column < sweep.gridSize() && !interruptRequested(); ++column) {
        const Bytes budget = sweep.request(0, column).config.budget;
        if (options.checkpointing)
            entry.schedules->setCheckpoint(column, schedules.checkpoint(budget));
        if (options.optimal)
            entry.schedules->setOptimal(column, schedules.optimal(budget, options.timeLimit));
        bar.advance(column + 1);
    }
    bar.finish();
}

// Every row's budgets from the grid's first to its last, classified byte by byte as `map` does.
int StripPanelSet::addExactMaps(const LoadedTrace &trace, Entry &entry, const FigureOptions &options)
{
    const SweepResultModel &sweep = *entry.sweep;
    const ByteRange range{sweep.request(0, 0).config.budget, sweep.request(0, sweep.gridSize() - 1).config.budget + 1};
    for (std::size_t p = 0; p < sweep.policyCount(); ++p) {
        const RunRequest &request = sweep.request(p, 0);
        if (const std::string problem = mapProblem(request.config); !problem.empty())
            return reportError(ExitBadUsage, problem);
        BudgetWalker walker(trace.program, request.config, options.threads);
        walker.setWallLimit(options.wallLimit);
        ProgressBar bar("map " + request.config.policy.name, static_cast<std::size_t>(range.size()));
        std::vector<RunResult> intervals;
        walker.walk({range}, &interruptRequested(), [&](const RunResult &r) { intervals.push_back(r); },
                    [&](const MapProgress &progress) { bar.advance(static_cast<std::size_t>(progress.mapped)); });
        bar.finish();
        if (interruptRequested()) {
            std::cerr << "figure: interrupted; no figure written" << std::endl;
            return ExitInterrupted;
        }
        entry.maps->add(ExactMapModel::keyOf(request), range, intervals);
    }
    entry.holes->rebuild(sweep, entry.maps.get());
    return ExitOk;
}

// --zoom-from-bytes and --zoom-to-bytes as the columns a panel shows.
void StripPanelSet::setZoom(StripFigure::Panel &panel, const FigureOptions &options) const
{
    if (!options.zoomFromBytes || !panel.sweep || panel.sweep->gridSize() == 0)
        return;
    const StripGeometry g = StripPainter(*panel.sweep, panel.holes, FigureStyle{}).layout(QRectF(), {});
    if (!(g.bytesPerColumn > 0))
        return;
    panel.viewFrom = g.columnOfBudget(static_cast<double>(*options.zoomFromBytes));
    panel.viewTo = g.columnOfBudget(static_cast<double>(*options.zoomToBytes));
}

namespace {

// The policy a sweep file names (built-in, parametrized or an expression); a name this build
// does not know still labels its row.
Policy policyNamed(const std::string &name)
{
    PolicySpecError error;
    if (std::optional<Policy> policy = parsePolicySpec(name, error))
        return *policy;
    Policy unknown;
    unknown.name = name;
    return unknown;
}

using Record = SweepFile::Record;

// The ratio as the record wrote it ("0.419"): JSON numbers print as the shortest exact form.
std::string ratioText(const Record &record)
{
    const auto ratio = record.find("ratio");
    return ratio == record.end() ? std::string("?") : ratio->dump();
}

} // namespace

int StripPanelSet::addSweepFile(const std::string &path, const FigureOptions &options)
{
    std::string error;
    const std::optional<std::vector<Record>> records = SweepFile::readRecords(path, error);
    if (!records)
        return reportError(ExitBadInput, error);
    if (records->empty())
        return reportError(ExitBadInput, path + ": the sweep file holds no runs");
    // Runs of one runtime and compute limit make one panel: those of the first record.
    const Record &first = records->front();
    const std::string runtime = first.value("runtime", std::string());
    const double limit = first.value("overhead_limit", 2.0);
    std::vector<std::string> policyNames;
    if (!options.policies.empty()) {
        std::optional<std::vector<Policy>> wanted = resolvePolicies(options.policies, error);
        if (!wanted)
            return reportError(ExitBadUsage, error);
        for (const Policy &policy : *wanted)
            policyNames.push_back(policy.name);
    }
    const bool choosePolicies = policyNames.empty();
    std::map<Bytes, std::string> budgets; // budget -> ratio text, in increasing budget order
    std::size_t skipped = 0;
    Baseline baseline;
    std::vector<const Record *> kept;
    for (const Record &record : *records) {
        const std::string policy = record.value("heuristic", std::string());
        if (record.value("runtime", std::string()) != runtime || record.value("overhead_limit", 2.0) != limit) {
            ++skipped;
            continue;
        }
        if (std::find(policyNames.begin(), policyNames.end(), policy) == policyNames.end()) {
            if (!choosePolicies)
                continue;
            policyNames.push_back(policy);
        }
        const Bytes budget = record.value("budget", Bytes{0});
        const double ratio = record.value("ratio", 0.0);
        budgets.emplace(budget, ratioText(record));
        if (ratio > 0)
            baseline.memory = std::max(baseline.memory, static_cast<Bytes>(std::llround(static_cast<double>(budget) / ratio)));
        if (record.value("result", std::string()) == "pass" && record.value("overhead", 0.0) > 0)
            baseline.compute = static_cast<Cost>(std::llround(record.value("clock", 0.0) / record.value("overhead", 1.0)));
        kept.push_back(&record);
    }
    if (skipped > 0)
        std::cerr << "figure: " << path << ": drawing the " << runtime << " runs with overhead limit " << limit
                  << "; " << skipped << " runs of other settings left out" << std::endl;
    if (kept.empty())
        return reportError(ExitBadInput, path + ": no runs of the policies asked for");
    std::vector<GridPoint> grid;
    std::map<Bytes, std::size_t> column;
    std::size_t decimals = 0; // "0.4" and "0.401" read as "0.400" and "0.401", as the sweep's grid wrote them
    for (const auto &[budget, text] : budgets)
        if (const std::size_t point = text.find('.'); point != std::string::npos)
            decimals = std::max(decimals, text.size() - point - 1);
    for (const auto &[budget, text] : budgets) {
        column[budget] = grid.size();
        std::string padded = text.find('.') == std::string::npos && decimals > 0 ? text + "." : text;
        const std::size_t point = padded.find('.');
        if (point != std::string::npos)
            padded.append(decimals - std::min(decimals, padded.size() - point - 1), '0');
        grid.push_back({padded, DecimalGrid::parseRatio(text).value_or(0.0)});
    }
    std::vector<RunRequest> requests;
    for (const std::string &name : policyNames)
        for (const auto &[budget, text] : budgets) {
            RunRequest request;
            request.trace = first.value("trace", std::string());
            request.config.policy = policyNamed(name);
            request.config.budget = budget;
            request.ratio = grid[column[budget]].ratio;
            request.overheadLimit = limit;
            requests.push_back(request);
        }
    std::vector<IndexedResult> results;
    for (const Record *record : kept) {
        const auto policy = std::find(policyNames.begin(), policyNames.end(), record->value("heuristic", std::string()));
        const std::size_t row = static_cast<std::size_t>(policy - policyNames.begin());
        results.push_back({row * grid.size() + column[record->value("budget", Bytes{0})], runFromJson(*record)});
    }
    add(shortTraceName(QString::fromStdString(first.value("trace", path))), baseline, std::move(grid), std::move(requests), policyNames.size(),
        limit, results);
    return ExitOk;
}

} // namespace rematlens
