#include "app/requests/explain_request.h"

#include "app/requests/loaded_trace.h"
#include "app/requests/request_settings.h"
#include "app/requests/run_options.h"
#include "app/reports/census_report.h"
#include "app/reports/hole_report.h"
#include "app/requests/request_reporter.h"
#include "app/requests/progress_bar.h"
#include "app/reports/run_report.h"
#include "app/formats/saved_map.h"

#include "core/analysis/hole_census.h"
#include "core/map/budget_walker.h"
#include "core/map/map_summary.h"
#include "core/sweep/decimal_grid.h"

#include <memory>

namespace rematlens {

namespace {

using Json = nlohmann::ordered_json;

// The budgets given: --ratio and --budget together, one or two of them.
std::string budgetsOf(const ExplainOptions &options, const Baseline &baseline, std::vector<Bytes> &budgets)
{
    for (const std::string &text : options.ratios) {
        const std::optional<double> ratio = DecimalGrid::parseRatio(text);
        if (!ratio || *ratio <= 0)
            return "--ratio expects a positive number, got \"" + text + "\"";
        budgets.push_back(budgetForRatio(baseline, *ratio));
    }
    for (std::int64_t b : options.budgets) {
        if (b < 0)
            return "--budget expects a non-negative number of bytes";
        budgets.push_back(b);
    }
    if (budgets.empty() || budgets.size() > 2)
        return "explain expects one budget inside the hole, or two (a passing and a failing one), as --ratio or "
               "--budget; or --hole K with --map FILE.jsonl; or a map file";
    return {};
}

// One progress bar per rescue search, on a terminal.
RescueSearch::Progress rescueBars()
{
    auto bar = std::make_shared<std::unique_ptr<ProgressBar>>();
    return [bar](std::size_t done, std::size_t total) {
        if (!*bar)
            *bar = std::make_unique<ProgressBar>("rescue", total);
        (*bar)->advance(done);
        if (done == total) {
            (*bar)->finish();
            bar->reset();
        }
    };
}

Json settingsJson(const LoadedTrace &trace, const RunRequest &request)
{
    Json j{{"trace", trace.name},
           {"heuristic", request.config.policy.name},
           {"runtime", std::string(simrdRuntimeName(request.config.runtime))},
           {"overhead_limit", request.overheadLimit}};
    if (!request.keep.empty())
        j["keep"] = request.keep;
    if (!request.config.allocator.isSum())
        j["allocator"] = allocatorKey(request.config.allocator);
    return j;
}

std::string settingsText(const LoadedTrace &trace, const RunRequest &request)
{
    const std::string model =
        request.config.allocator.isSum() ? std::string() : ", allocator " + allocatorKey(request.config.allocator);
    return trace.name + "  " + request.config.policy.name + ", " + std::string(runtimeName(request.config.runtime))
           + " runtime, overhead limit " + fixedDigits(request.overheadLimit, 2) + model + "\n";
}

RequestOutcome tellOne(const LoadedTrace &trace, const RunRequest &request, const HoleAnatomy &anatomy)
{
    if (interruptRequested())
        return RequestOutcome::failed(
            reportError(ExitInterrupted, "interrupted; the anatomy would be incomplete, so none is given"));
    const HoleReportContext context{*trace.program, trace.baseline};
    RequestOutcome outcome;
    outcome.json = settingsJson(trace, request);
    outcome.json["hole"] = holeAnatomyJson(anatomy, context);
    outcome.text = settingsText(trace, request) + holeAnatomyText(anatomy, context);
    return outcome;
}

// --pair-only: the story of the two budgets as given, and its replays.
RequestOutcome tellPair(const LoadedTrace &trace, const RunRequest &request, const EdgeStory &story)
{
    if (interruptRequested())
        return RequestOutcome::failed(
            reportError(ExitInterrupted, "interrupted; the story would be incomplete, so none is given"));
    const HoleReportContext context{*trace.program, trace.baseline};
    const std::size_t rescueReplays = story.rescued ? story.rescue.tried + 1 : 0;
    RequestOutcome outcome;
    outcome.json = settingsJson(trace, request);
    outcome.json["given"] = edgeStoryJson(story, context);
    outcome.json["replays"] = Json{{"walk", 2}, {"stories", story.replays}, {"rescue", rescueReplays},
                                   {"total", 2 + story.replays + rescueReplays}};
    outcome.text = settingsText(trace, request) + "the budgets asked, " + budgetText(story.smallerBudget, trace.baseline)
                   + " and " + budgetText(story.largerBudget, trace.baseline) + ":\n" + edgeStoryText(story, context)
                   + "replays: 2 to check the budgets, " + std::to_string(story.replays) + " to tell the story, "
                   + std::to_string(rescueReplays) + " in the rescue search\n";
    return outcome;
}

AnatomyOptions anatomyOptions(const ExplainOptions &options, bool rescueByDefault)
{
    AnatomyOptions anatomy;
    anatomy.rescue = options.rescueOn || (rescueByDefault && !options.rescueOff);
    anatomy.cancel = &interruptRequested();
    if (anatomy.rescue)
        anatomy.rescueProgress = rescueBars();
    return anatomy;
}

// explain TRACE --ratio R [--ratio R2] (or --budget): find the hole, then tell it.
RequestOutcome explainBudgets(const ExplainOptions &options, const LoadedTrace &trace, const RunRequest &request)
{
    std::vector<Bytes> budgets;
    if (const std::string problem = budgetsOf(options, trace.baseline, budgets); !problem.empty())
        return RequestOutcome::failed(reportError(ExitBadUsage, problem));
    const SweepRunner runner(trace.program, options.threads);
    const HoleAnatomist anatomist(runner, trace.baseline, request);
    std::optional<std::pair<Bytes, Bytes>> pair;
    Bytes failing = budgets.front();
    if (options.pairOnly && budgets.size() != 2)
        return RequestOutcome::failed(reportError(ExitBadUsage, "--pair-only expects two budgets"));
    if (budgets.size() == 2) {
        const RunResult a = runner.runOne(anatomist.at(budgets[0]).config, &interruptRequested());
        const RunResult b = runner.runOne(anatomist.at(budgets[1]).config, &interruptRequested());
        if ((a.outcome == Outcome::Pass) == (b.outcome == Outcome::Pass) || !isResolved(a.outcome)
            || !isResolved(b.outcome))
            return RequestOutcome::failed(reportError(ExitBadUsage, "explain expects one passing and one failing budget; " + budgetText(budgets[0], trace.baseline)
                                                 + " gives " + std::string(outcomeName(a.outcome)) + " and "
                                                 + budgetText(budgets[1], trace.baseline) + " "
                                                 + std::string(outcomeName(b.outcome))));
        failing = isFailure(a.outcome) ? budgets[0] : budgets[1];
        pair = std::pair{budgets[0], budgets[1]};
    }
    if (options.pairOnly)
        return tellPair(trace, request, anatomist.tell(std::min(budgets[0], budgets[1]), std::max(budgets[0], budgets[1]),
                                                       anatomyOptions(options, true)));
    const HoleAnatomist::Located located = anatomist.locate(failing, &interruptRequested());
    if (!located.hole)
        return RequestOutcome::failed(reportError(interruptRequested() ? ExitInterrupted : ExitBadUsage, located.problem));
    HoleAnatomy anatomy =
        anatomist.explain(located.hole->first, located.hole->second, pair, anatomyOptions(options, true));
    anatomy.walkReplays = located.replays + (pair ? 2 : 0);
    return tellOne(trace, request, anatomy);
}

// The request a saved map's part was made with (its budget set per run).
std::string requestOf(const MapIdentity &identity, std::uint64_t seed, const LoadedTrace &trace,
                      const ExplainOptions &options, RunRequest &request)
{
    RunOptions run = options.run;
    run.policy = identity.heuristic;
    run.seed = seed; // a random policy's holes are those of the map's draws
    run.runtime = identity.runtime;
    run.overheadLimit = Json(identity.overheadLimit).dump();
    run.keep = identity.keep;
    run.ratio.reset();
    run.budget = 0;
    request.trace = trace.name;
    std::string problem = configureRun(run, trace, request);
    if (problem.empty() && identity.allocator != "sum") {
        const std::optional<AllocatorConfig> allocator = parseAllocatorKey(identity.allocator);
        if (!allocator)
            return "the map's allocator \"" + identity.allocator + "\" is not one this version knows";
        request.config.allocator = *allocator;
    }
    return problem;
}

RequestOutcome explainSavedMap(const ExplainOptions &options, const std::string &mapPath)
{
    std::string error;
    const std::optional<SavedMap> saved = SavedMap::read(mapPath, options.tracePath, error);
    if (!saved)
        return RequestOutcome::failed(reportError(ExitBadInput, error));
    const std::optional<LoadedTrace> trace = loadWithBaseline(saved->tracePath);
    if (!trace)
        return RequestOutcome::failed(ExitBadInput);
    std::vector<CensusReport> censuses;
    const SweepRunner runner(trace->program, options.threads);
    for (const SavedMap::Part &part : saved->parts) {
        RunRequest request;
        if (const std::string problem = requestOf(part.identity, saved->provenance.seed(), *trace, options, request);
            !problem.empty())
            return RequestOutcome::failed(reportError(ExitBadInput, mapPath + ": " + problem));
        const MapSummary summary = summarizeMap(saved->range, part.intervals);
        const HoleAnatomist anatomist(runner, trace->baseline, request);
        if (options.hole) {
            if (*options.hole < 1 || static_cast<std::size_t>(*options.hole) > summary.holes.size())
                return RequestOutcome::failed(reportError(ExitBadUsage, "--hole expects 1 to " + std::to_string(summary.holes.size())
                                                     + ": the map of " + part.identity.heuristic + " in " + mapPath
                                                     + " has " + std::to_string(summary.holes.size()) + " holes"));
            const MapHole &hole = summary.holes[static_cast<std::size_t>(*options.hole - 1)];
            return tellOne(*trace, request, anatomist.explain(hole.firstFail, hole.lastFail, {}, anatomyOptions(options, true)));
        }
        censuses.push_back(CensusReport{settingsText(*trace, request), settingsJson(*trace, request), saved->range,
                                        takeCensus(anatomist, summary, anatomyOptions(options, false))});
    }
    if (interruptRequested())
        return RequestOutcome::failed(reportError(ExitInterrupted, "interrupted; the census would be incomplete, so none is printed"));
    const HoleReportContext context{*trace->program, trace->baseline};
    RequestOutcome outcome;
    outcome.json = censusesJson(censuses, context);
    outcome.text = censusesText(censuses, context);
    return outcome;
}

} // namespace

RequestOutcome executeExplain(const ExplainOptions &options)
{
    if (options.rescueOn && options.rescueOff)
        return RequestOutcome::failed(reportError(ExitBadUsage, "--rescue and --no-rescue exclude each other"));
    const bool givenBudgets = !options.ratios.empty() || !options.budgets.empty();
    const bool mapInput = options.run.trace.ends_with(".jsonl");
    if (mapInput || !options.mapPath.empty()) {
        if (givenBudgets)
            return RequestOutcome::failed(reportError(ExitBadUsage, "give either budgets or a map (with --hole K), not both"));
        if (!options.mapPath.empty() && !options.hole)
            return RequestOutcome::failed(reportError(ExitBadUsage, "--map expects --hole K: which of its holes to explain"));
        ExplainOptions withTrace = options;
        if (!mapInput && withTrace.tracePath.empty())
            withTrace.tracePath = options.run.trace;
        return explainSavedMap(withTrace, mapInput ? options.run.trace : options.mapPath);
    }
    if (options.hole)
        return RequestOutcome::failed(reportError(ExitBadUsage, "--hole expects a map: --map FILE.jsonl, or the map file in place of the trace"));
    if (std::string error; !resolvePolicies({options.run.policy}, error))
        return RequestOutcome::failed(reportError(ExitBadUsage, error));
    const std::optional<LoadedTrace> trace = loadWithBaseline(options.run.trace);
    if (!trace)
        return RequestOutcome::failed(ExitBadInput);
    RunRequest request;
    request.trace = trace->name;
    RunOptions run = options.run;
    run.budget = 0;
    if (const std::string problem = configureRun(run, *trace, request); !problem.empty())
        return RequestOutcome::failed(reportError(ExitBadUsage, problem));
    if (const std::string problem = mapProblem(request.config); !problem.empty())
        return RequestOutcome::failed(reportError(ExitBadUsage, "explain: " + problem));
    return explainBudgets(options, *trace, request);
}

} // namespace rematlens
