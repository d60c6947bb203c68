#include "exact_map.h"

#include "commands.h"
#include "interrupt.h"
#include "map_file.h"
#include "progress_bar.h"

#include "core/map/budget_walker.h"
#include "core/sweep/decimal_grid.h"
#include "core/sweep/sweep_plan.h"

#include <chrono>

namespace rematlens {

namespace {

std::string checkOptions(const MapOptions &options, SweepSettings &settings)
{
    if (std::string problem = resolveRunSettings(options.policies, options.runtime, options.overheadLimit, options.seed,
                                                 settings);
        !problem.empty())
        return problem;
    if (options.wallLimit && !(*options.wallLimit > 0))
        return "--wall-limit expects a positive number of seconds";
    const bool ratios = options.from || options.to;
    const bool bytes = options.fromBytes || options.toBytes;
    if (ratios == bytes || (ratios && !(options.from && options.to)) || (bytes && !(options.fromBytes && options.toBytes)))
        return "give the range as --from A --to B (ratios) or as --from-bytes X --to-bytes Y";
    if (std::string problem = resolveAllocator(options.allocator, settings.allocator); !problem.empty())
        return problem;
    for (const Policy &policy : settings.policies) {
        RunConfig probe;
        probe.policy = policy;
        probe.allocator = settings.allocator;
        if (std::string problem = mapProblem(probe); !problem.empty())
            return problem;
    }
    return {};
}

std::optional<ByteRange> rangeOf(const MapOptions &options, const Baseline &baseline, std::string &error)
{
    Bytes from = 0;
    Bytes to = 0;
    if (options.from) {
        const std::optional<double> a = DecimalGrid::parseRatio(*options.from);
        const std::optional<double> b = DecimalGrid::parseRatio(*options.to);
        if (!a || !b || *a < 0 || *b < 0) {
            error = "--from and --to expect non-negative ratios, got \"" + *options.from + "\" and \"" + *options.to + "\"";
            return std::nullopt;
        }
        from = budgetForRatio(baseline, *a);
        to = budgetForRatio(baseline, *b);
    } else {
        from = *options.fromBytes;
        to = *options.toBytes;
    }
    if (from < 0 || to < from) {
        error = "the range must satisfy 0 <= from <= to, got " + std::to_string(from) + " .. " + std::to_string(to) + " B";
        return std::nullopt;
    }
    return ByteRange{from, to + 1};
}

// Walks what --out does not hold yet, appending every interval as it finishes.
void walkPolicy(const MapOptions &options, const ExactMap &map, MapFile *file, PolicyMap &policyMap, bool &writeFailed,
                std::string &writeError)
{
    std::vector<RunResult> found = file ? file->intervalsOf(policyMap.identity) : std::vector<RunResult>{};
    policyMap.fromFile = found.size();
    std::vector<BudgetInterval> known;
    for (const RunResult &r : found)
        known.push_back(r.interval);
    const std::vector<ByteRange> todo = uncoveredRanges(map.range, known);
    Bytes total = 0;
    for (const ByteRange &r : todo)
        total += r.size();

    BudgetWalker walker(map.trace.program, policyMap.config, options.threads);
    walker.setWallLimit(options.wallLimit);
    ProgressBar bar("map " + policyMap.identity.heuristic, static_cast<std::size_t>(total));
    const auto started = std::chrono::steady_clock::now();
    const MapWalkEnd end = walker.walk(
        todo, &interruptRequested(),
        [&](const RunResult &result) {
            found.push_back(result);
            if (file && !writeFailed
                && !file->append(mapRecordToJson(policyMap.identity, result, map.trace.baseline), writeError))
                writeFailed = true;
        },
        [&](const MapProgress &progress) { bar.advance(static_cast<std::size_t>(progress.mapped)); });
    bar.finish();
    policyMap.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    policyMap.replays = end.replays;
    policyMap.intervals = sortedIntervals(std::move(found));
    policyMap.summary = summarizeMap(map.range, policyMap.intervals);
}

} // namespace

int makeExactMap(const MapOptions &options, ExactMap &map)
{
    SweepSettings settings;
    if (const std::string problem = checkOptions(options, settings); !problem.empty())
        return reportError(ExitBadUsage, problem);
    if (!options.outPath.empty() && !options.outPath.ends_with(".jsonl"))
        return reportError(ExitBadUsage, "--out expects a .jsonl file, got " + options.outPath);
    std::optional<LoadedTrace> loaded = loadWithBaseline(options.trace);
    if (!loaded)
        return ExitBadInput;
    map.trace = std::move(*loaded);
    settings.trace = map.trace.name;
    std::string error;
    const std::optional<ByteRange> range = rangeOf(options, map.trace.baseline, error);
    if (!range)
        return reportError(ExitBadUsage, error);
    map.range = *range;
    if (const std::string problem = applyKeep(options.keep, *map.trace.program, settings); !problem.empty())
        return reportError(ExitBadUsage, problem);

    MapFile file;
    if (!options.outPath.empty()) {
        const std::optional<Provenance> provenance = Provenance::describe(
            options.trace, settings, {{"range", {{"from_bytes", map.range.from}, {"to_bytes", map.range.end}}}}, error);
        if (!provenance || !file.open(options.outPath, *provenance, error))
            return reportError(ExitBadInput, error);
    }
    watchInterrupts();
    bool writeFailed = false;
    for (const Policy &policy : settings.policies) {
        PolicyMap policyMap;
        const RunRequest request = planBudget(settings, policy, map.trace.baseline, 0);
        policyMap.config = request.config;
        policyMap.identity = MapIdentity{map.trace.name, policy.name, std::string(simrdRuntimeName(settings.runtime)),
                                         settings.overheadLimit, settings.keep};
        walkPolicy(options, map, options.outPath.empty() ? nullptr : &file, policyMap, writeFailed, error);
        map.maps.push_back(std::move(policyMap));
        if (interruptRequested())
            break;
    }
    map.interrupted = interruptRequested();
    if (writeFailed || (!options.outPath.empty() && !file.finish(error)))
        return reportError(ExitBadInput, error);
    if (!map.interrupted)
        for (PolicyMap &policyMap : map.maps)
            policyMap.edges = explainEdges(*map.trace.program, policyMap.config, policyMap.summary, &interruptRequested());
    map.threads = BudgetWalker(map.trace.program, RunConfig{}, options.threads).threads();
    return ExitOk;
}

} // namespace rematlens
