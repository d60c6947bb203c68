#include "app/requests/holes_request.h"

#include "app/requests/loaded_trace.h"
#include "app/requests/grid_options.h"
#include "app/requests/request_reporter.h"
#include "app/requests/progress_bar.h"
#include "app/formats/provenance.h"
#include "app/reports/map_report.h"
#include "app/reports/run_report.h"
#include "app/formats/sweep_file.h"

#include "app/distribution/runs_across_ranks.h"

#include "core/sweep/hole_survey.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <memory>
#include <optional>

namespace rematlens {

namespace {

using Json = nlohmann::ordered_json;

struct Context {
    const HoleSurvey &survey;
    const Baseline &baseline;
};

double ratioOf(const Context &c, Bytes budget)
{
    return static_cast<double>(budget) / static_cast<double>(c.baseline.memory);
}

Json point(const Context &c, std::size_t i)
{
    const SurveyRun &run = c.survey.grid[i];
    return Json{{"ratio", run.request.ratio},
                {"budget", run.request.config.budget},
                {"result", std::string(outcomeName(run.result.outcome))}};
}

Json optionalPoint(const Context &c, const std::optional<std::size_t> &i)
{
    return i ? point(c, *i) : Json();
}

Json edgeJson(const Context &c, const BudgetEdge &e)
{
    return Json{{"below_budget", e.below},
                {"above_budget", e.above},
                {"below_ratio", ratioOf(c, e.below)},
                {"above_ratio", ratioOf(c, e.above)},
                {"below_result", std::string(outcomeName(e.belowOutcome))},
                {"above_result", std::string(outcomeName(e.aboveOutcome))},
                {"resolved", e.resolved},
                {"runs", e.runs}};
}

Json holeJson(const Context &c, const Hole &hole)
{
    const auto &g = c.survey.grid;
    Json results = Json::array();
    for (std::size_t i = hole.firstFail; i <= hole.lastFail; ++i)
        results.push_back(runToJson(g[i].request, g[i].result, c.baseline));
    return Json{{"first_fail", g[hole.firstFail].request.ratio},
                {"last_fail", g[hole.lastFail].request.ratio},
                {"last_pass_below", g[hole.lastPassBelow].request.ratio},
                {"first_pass_above", g[hole.firstPassAbove].request.ratio},
                {"first_fail_budget", g[hole.firstFail].request.config.budget},
                {"last_fail_budget", g[hole.lastFail].request.config.budget},
                {"last_pass_below_budget", g[hole.lastPassBelow].request.config.budget},
                {"first_pass_above_budget", g[hole.firstPassAbove].request.config.budget},
                {"results", results},
                {"passes_around", Json::array({runToJson(g[hole.lastPassBelow].request, g[hole.lastPassBelow].result, c.baseline),
                                               runToJson(g[hole.firstPassAbove].request, g[hole.firstPassAbove].result,
                                                         c.baseline)})}};
}

Json surveyJson(const Context &c, const HolesOptions &options, const SweepSettings &settings, double seconds)
{
    const HoleReport &r = c.survey.report;
    Json j;
    j["trace"] = settings.trace;
    j["heuristic"] = settings.policies.front().name;
    j["runtime"] = std::string(simrdRuntimeName(settings.runtime));
    j["overhead_limit"] = settings.overheadLimit;
    if (!settings.keep.empty())
        j["keep"] = settings.keep;
    j["from"] = options.grid.from;
    j["to"] = options.grid.to;
    j["step"] = options.grid.step;
    j["budgets"] = c.survey.grid.size();
    j["first_success"] = optionalPoint(c, r.firstSuccess);
    j["stable_from"] = optionalPoint(c, r.stableFrom);
    Json failures = Json::array();
    for (std::size_t i : r.failuresAboveFirstSuccess)
        failures.push_back(point(c, i));
    j["failures_above_first_success"] = failures;
    Json holes = Json::array();
    for (const Hole &hole : r.holes)
        holes.push_back(holeJson(c, hole));
    j["holes"] = holes;
    Json gaps = Json::array();
    for (const auto &[first, last] : r.unresolvedGaps)
        gaps.push_back(Json{{"from", c.survey.grid[first].request.ratio}, {"to", c.survey.grid[last].request.ratio}});
    j["unresolved"] = gaps;
    if (options.repeats > 0) {
        Json disagreements = Json::array();
        for (const RepeatCheck &check : c.survey.repeats)
            if (!check.agrees) {
                Json results = Json::array();
                for (const RunResult &result : check.results)
                    results.push_back(runToJson(c.survey.grid[check.gridIndex].request, result, c.baseline));
                disagreements.push_back(Json{{"point", point(c, check.gridIndex)}, {"results", results}});
            }
        j["repeats"] = Json{{"count", options.repeats}, {"budgets_checked", c.survey.repeats.size()},
                            {"disagreements", disagreements}};
    }
    if (options.edges) {
        Json edges = Json::array();
        for (const BudgetEdge &e : c.survey.edges)
            edges.push_back(edgeJson(c, e));
        j["edges"] = edges;
    }
    if (options.samples > 0) {
        Json narrowHoles = Json::array();
        Json islands = Json::array();
        for (const NarrowFeature &f : c.survey.narrow)
            (f.isHole ? narrowHoles : islands)
                .push_back(Json{{"between", Json::array({c.survey.grid[f.interval].request.ratio,
                                                          c.survey.grid[f.interval + 1].request.ratio})},
                                {"sample_budget", f.sample},
                                {"sample_result", std::string(outcomeName(f.sampleOutcome))},
                                {"lower_edge", edgeJson(c, f.lower)},
                                {"upper_edge", edgeJson(c, f.upper)}});
        j["samples"] = Json{{"per_interval", options.samples}, {"seed", options.grid.seed}};
        j["narrow_holes"] = narrowHoles;
        j["pass_islands"] = islands;
    }
    j["runs"] = c.survey.runs;
    j["seconds"] = seconds;
    return j;
}

std::string describe(const Context &c, std::size_t i)
{
    const SurveyRun &run = c.survey.grid[i];
    char text[96];
    std::snprintf(text, sizeof text, "%.6g (%s B)", run.request.ratio, groupDigits(run.request.config.budget).c_str());
    return text;
}

std::string textOf(const Context &c, const SweepSettings &settings, double seconds)
{
    std::ostringstream out;
    const HoleReport &r = c.survey.report;
    out << settings.trace << "  " << settings.policies.front().name << ", " << runtimeName(settings.runtime)
              << " runtime, " << c.survey.grid.size() << " budgets\n";
    out << "  first success      " << (r.firstSuccess ? describe(c, *r.firstSuccess) : "none") << "\n";
    out << "  stable from        " << (r.stableFrom ? describe(c, *r.stableFrom) : "never") << "\n";
    out << "  failures above the first success: " << r.failuresAboveFirstSuccess.size() << "\n";
    if (r.holes.empty())
        out << "  no holes\n";
    for (std::size_t h = 0; h < r.holes.size(); ++h) {
        const Hole &hole = r.holes[h];
        out << "  hole " << h + 1 << ": fails " << describe(c, hole.firstFail) << " .. "
                  << describe(c, hole.lastFail) << "; passes at " << describe(c, hole.lastPassBelow) << " and "
                  << describe(c, hole.firstPassAbove)  << "\n";
    }
    for (const RepeatCheck &check : c.survey.repeats)
        if (!check.agrees)
            out << "  repeat disagrees at " << describe(c, check.gridIndex) << "\n";
    for (const BudgetEdge &e : c.survey.edges)
        out << "  edge: " << outcomeName(e.belowOutcome) << " at " << groupDigits(e.below) << " B, "
                  << outcomeName(e.aboveOutcome) << " at " << groupDigits(e.above) << " B"
                  << (e.resolved ? "" : " (unresolved: a run timed out)") << "\n";
    for (const NarrowFeature &f : c.survey.narrow)
        out << "  narrow " << (f.isHole ? "hole" : "passing island") << " between "
                  << describe(c, f.interval) << " and " << describe(c, f.interval + 1) << ": "
                  << groupDigits(f.lower.above) << " .. " << groupDigits(f.upper.below) << " B\n";
    out << "  " << c.survey.runs << " replays in " << seconds << " s\n";
    return out.str();
}

// --out: the provenance line, then the report on one line.
bool writeReport(const HolesOptions &options, const SweepSettings &settings, const Json &report, std::string &error)
{
    const std::optional<Provenance> provenance =
        Provenance::describe(options.grid.trace, settings, gridScope(options.grid), error);
    if (!provenance)
        return false;
    std::ofstream out(options.outPath, std::ios::trunc);
    out << provenance->jsonLine() << report.dump() << '\n';
    if (!out.flush()) {
        error = options.outPath + ": cannot write";
        return false;
    }
    return true;
}

// holes --exact: the holes of the exact map of --from..--to.
RequestOutcome exactHoles(const HolesOptions &options)
{
    if (options.grid.policies.size() > 1)
        return RequestOutcome::failed(reportError(ExitBadUsage, "holes takes one --policy (run it once per policy)"));
    if (options.repeats > 0 || options.edges || options.samples > 0)
        return RequestOutcome::failed(reportError(ExitBadUsage, "--exact classifies every byte: --repeats, --edges and --samples add nothing"));
    MapOptions map;
    map.trace = options.grid.trace;
    map.from = options.grid.from;
    map.to = options.grid.to;
    map.policies = options.grid.policies;
    map.runtime = options.grid.runtime;
    map.overheadLimit = options.grid.overheadLimit;
    map.keep = options.grid.keep;
    map.seed = options.grid.seed;
    map.allocator = options.grid.allocator;
    map.threads = options.grid.threads;
    map.wallLimit = options.grid.wallLimit;
    ExactMap exact;
    if (const int status = makeExactMap(map, exact); status != ExitOk)
        return RequestOutcome::failed(status);
    if (exact.interrupted)
        return RequestOutcome::failed(
            reportError(ExitInterrupted, "interrupted; the report would be incomplete, so none is given"));
    RequestOutcome outcome;
    outcome.json = exactHolesJson(exact);
    outcome.text = exactHolesText(exact);
    return outcome;
}

} // namespace

RequestOutcome executeHoles(const HolesOptions &options, const MpiWorld &world)
{
    if (options.exact)
        return exactHoles(options);
    SweepSettings settings;
    std::vector<GridPoint> grid;
    if (const std::string problem = prepareGrid(options.grid, settings, grid); !problem.empty())
        return RequestOutcome::failed(usageError(world, problem));
    if (settings.policies.size() != 1)
        return RequestOutcome::failed(usageError(world, "holes takes one --policy (run it once per policy)"));
    if (!options.outPath.empty() && SweepFile::formatFor(options.outPath) != SweepFile::Format::JsonLines)
        return RequestOutcome::failed(usageError(world, "--out expects a .jsonl file, got " + options.outPath));
    if (options.repeats < 0 || options.samples < 0)
        return RequestOutcome::failed(usageError(world, "--repeats and --samples expect non-negative counts"));
    const std::optional<LoadedTrace> loaded = loadWithBaseline(options.grid.trace);
    if (!world.allAgree(loaded.has_value()))
        return RequestOutcome::failed(ExitBadInput);
    settings.trace = loaded->name;
    if (const std::string problem = applyKeep(options.grid.keep, *loaded->program, settings); !problem.empty())
        return RequestOutcome::failed(reportError(ExitBadUsage, problem));

    SweepRunner runner(loaded->program, options.grid.threads);
    runner.setWallLimit(options.grid.wallLimit);
    std::optional<RunsAcrossRanks> spread;
    if (world.distributed())
        spread.emplace(world, runner, loaded->baseline, options.grid.threads);
    if (!world.isRoot()) {
        // The other ranks only run the grid, the same requests as rank 0's survey makes.
        spread->run(planSweep(settings, loaded->baseline, grid), &interruptRequested(), {});
        return RequestOutcome::failed(interruptRequested() ? ExitInterrupted : ExitOk);
    }
    std::unique_ptr<ProgressBar> bar;
    std::string stage;
    const auto started = std::chrono::steady_clock::now();
    HoleSurveyor surveyor(runner, settings, loaded->baseline);
    if (spread)
        surveyor.setGridRunner([&](const std::vector<RunRequest> &requests, const std::atomic<bool> *cancel,
                                   const std::function<void(std::size_t)> &done) {
            return spread->run(requests, cancel, done);
        });
    const HoleSurvey survey = surveyor.survey(
        grid, SurveyOptions{options.repeats, options.edges, options.samples, options.grid.seed}, &interruptRequested(),
        [&](const char *name, std::size_t done, std::size_t total) {
            if (stage != name) {
                if (bar)
                    bar->finish();
                stage = name;
                bar = std::make_unique<ProgressBar>("holes: " + stage, total);
            }
            bar->advance(done);
        });
    if (bar)
        bar->finish();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (survey.interrupted)
        return RequestOutcome::failed(
            reportError(ExitInterrupted, "interrupted; the report would be incomplete, so none is given"));
    const Context context{survey, loaded->baseline};
    RequestOutcome outcome;
    outcome.json = surveyJson(context, options, settings, seconds);
    outcome.text = textOf(context, settings, seconds);
    if (!options.outPath.empty()) {
        std::string error;
        if (!writeReport(options, settings, outcome.json, error))
            return RequestOutcome::failed(reportError(ExitBadInput, error));
    }
    return outcome;
}

} // namespace rematlens
