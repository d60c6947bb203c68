#include "app/requests/exact_map.h"
#include "app/requests/loaded_trace.h"

#include "app/requests/grid_options.h"
#include "app/requests/run_options.h"
#include "app/requests/request_reporter.h"
#include "app/distribution/map_across_ranks.h"
#include "app/formats/map_file.h"
#include "app/distribution/map_pieces.h"
#include "app/requests/progress_bar.h"
#include "app/distribution/shard.h"

#include "app/mpi/mpi_world.h"

#include "core/map/budget_walker.h"
#include "core/map/impossible_stretch.h"
#include "core/sweep/decimal_grid.h"
#include "core/sweep/sweep_plan.h"

#include <tbb/task_arena.h>

#include <chrono>
#include <iostream>
#include <set>

namespace rematlens {

namespace {

// Pieces per thread of an MPI job: enough that the dense stretches spread over every rank.
constexpr std::size_t kPiecesPerThread = 16;
constexpr std::size_t kMinPieces = 64;
// BudgetWalker's default chunks per thread for one range.
constexpr std::size_t kChunksPerThread = 16;

// How the range is spread: over shards (job arrays), ranks (MPI), both, or neither.
struct Placement {
    const MpiWorld *world = nullptr; // several ranks, or none
    std::optional<Shard> shard;

    bool isRoot() const { return !world || world->isRoot(); }
    bool pieced() const { return world || shard; }
};

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

// The stretch below the fit floor (impossible, costing one replay at the floor), unless the
// file already covers the range's first budget.
std::optional<RunResult> newImpossibleStretch(const MapOptions &options, const ExactMap &map,
                                              const PolicyMap &policyMap, const std::vector<RunResult> &found)
{
    for (const RunResult &r : found)
        if (r.interval.contains(map.range.from))
            return std::nullopt;
    BudgetWalker walker(map.trace.program, policyMap.config, 1);
    walker.setWallLimit(options.wallLimit);
    return impossibleStretch(*map.trace.program, policyMap.config, map.range, walker, &interruptRequested());
}

// Walks what --out does not hold yet, appending every interval as it finishes.
// With a shard, only the pieces it owns, and only the intervals those pieces report.
void walkPolicy(const MapOptions &options, const ExactMap &map, const Placement &placement, MapFile *file,
                PolicyMap &policyMap, bool &writeFailed, std::string &writeError)
{
    std::vector<RunResult> found = file ? file->intervalsOf(policyMap.identity) : std::vector<RunResult>{};
    policyMap.fromFile = found.size();
    std::vector<BudgetInterval> known;
    for (const RunResult &r : found)
        known.push_back(r.interval);
    const std::optional<RunResult> impossible = newImpossibleStretch(options, map, policyMap, found);
    if (impossible)
        known.push_back(impossible->interval);
    std::vector<ByteRange> todo;
    std::optional<MapPieces> pieces;
    if (placement.shard) {
        pieces.emplace(map.range, MapPieces::kPerShard * placement.shard->count);
        const std::vector<std::vector<ByteRange>> perPiece = pieces->todo(known);
        for (std::size_t k = 0; k < perPiece.size(); ++k)
            if (placement.shard->owns(k))
                todo.insert(todo.end(), perPiece[k].begin(), perPiece[k].end());
    } else {
        todo = uncoveredRanges(map.range, known);
    }
    if (options.summaryOnly)
        todo.clear();
    std::set<Bytes> reported; // a piece's walk may meet the interval the shard's piece below reports
    Bytes total = 0;
    for (const ByteRange &r : todo)
        total += r.size();

    BudgetWalker walker(map.trace.program, policyMap.config, options.threads);
    walker.setWallLimit(options.wallLimit);
    // A shard's pieces are many ranges already: cutting each again would add a replay per cut
    // (and lose the checkpoints that consecutive replays of a chunk share).
    if (pieces)
        walker.setChunksPerThread(std::max<std::size_t>(1, kChunksPerThread / std::max<std::size_t>(1, todo.size())));
    ProgressBar bar("map " + policyMap.identity.heuristic, static_cast<std::size_t>(total));
    const auto started = std::chrono::steady_clock::now();
    auto take = [&](const RunResult &result) {
        if (pieces && (!placement.shard->owns(pieces->ownerOf(result.interval)) || !reported.insert(result.interval.lo).second))
            return;
        found.push_back(result);
        // A summary writes nothing, not even the impossible stretch it proves without a replay.
        if (file && !options.summaryOnly && !writeFailed
            && !file->append(mapRecordToJson(policyMap.identity, result, map.trace.baseline), writeError))
            writeFailed = true;
    };
    if (impossible)
        take(*impossible);
    const MapWalkEnd end = walker.walk(todo, &interruptRequested(), take, [&](const MapProgress &progress) {
        bar.advance(static_cast<std::size_t>(progress.mapped));
    });
    bar.finish();
    policyMap.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    policyMap.replays = end.replays + (impossible ? 1 : 0);
    policyMap.joins = end.joins;
    policyMap.intervals = sortedIntervals(std::move(found));
    policyMap.summary = summarizeMap(map.range, policyMap.intervals);
}

// Across MPI ranks: rank 0 hands out pieces (those of its shard, when sharded) and appends
// every interval record as pieces come back; every rank walks pieces on its threads.
// True when the run stopped early (cancelled, or a rank is gone).
bool walkPolicyAcrossRanks(const MapOptions &options, const ExactMap &map, const Placement &placement, MapFile *file,
                           PolicyMap &policyMap, bool &writeFailed, std::string &writeError)
{
    const MpiWorld &world = *placement.world;
    std::vector<RunResult> found = file ? file->intervalsOf(policyMap.identity) : std::vector<RunResult>{};
    policyMap.fromFile = found.size();
    BudgetWalker walker(map.trace.program, policyMap.config, 1);
    walker.setChunksPerThread(1);
    walker.setWallLimit(options.wallLimit);
    // Every rank must cut the range alike: rank 0's count wins (threads may differ by node).
    std::string count = std::to_string(placement.shard ? MapPieces::kPerShard * placement.shard->count
                                                       : std::max(kMinPieces, kPiecesPerThread * static_cast<std::size_t>(world.size())
                                                                                  * static_cast<std::size_t>(options.threads > 0 ? options.threads : tbb::this_task_arena::max_concurrency())));
    world.broadcast(count);
    const MapPieces pieces(map.range, std::stoull(count));
    std::vector<MapAcrossRanks::Item> items;
    Bytes total = 0;
    std::set<Bytes> reported;
    if (world.isRoot()) {
        std::vector<BudgetInterval> known;
        for (const RunResult &r : found)
            known.push_back(r.interval);
        const std::optional<RunResult> impossible = newImpossibleStretch(options, map, policyMap, found);
        if (impossible)
            known.push_back(impossible->interval); // walked by no shard: it costs no replay
        if (impossible && (!placement.shard || placement.shard->owns(pieces.ownerOf(impossible->interval)))) {
            reported.insert(impossible->interval.lo);
            found.push_back(*impossible);
            if (file && !writeFailed
                && !file->append(mapRecordToJson(policyMap.identity, *impossible, map.trace.baseline), writeError))
                writeFailed = true;
        }
        std::vector<std::vector<ByteRange>> perPiece = pieces.todo(known);
        for (std::size_t k = 0; k < perPiece.size(); ++k)
            if (!perPiece[k].empty() && (!placement.shard || placement.shard->owns(k))) {
                for (const ByteRange &r : perPiece[k])
                    total += r.size();
                items.push_back({k, std::move(perPiece[k])});
            }
    }
    for (const RunResult &r : found)
        reported.insert(r.interval.lo);
    MapAcrossRanks ranks(world, walker, pieces, options.threads);
    std::optional<ProgressBar> bar;
    if (world.isRoot())
        bar.emplace("map " + policyMap.identity.heuristic, static_cast<std::size_t>(total));
    Bytes mapped = 0;
    const WorkDistributor::Ending ending = ranks.run(
        std::move(items), [&](const RunResult &r) { return mapRecordToJson(policyMap.identity, r, map.trace.baseline); },
        [&](const std::vector<nlohmann::ordered_json> &records, Bytes bytes) {
            for (const nlohmann::ordered_json &record : records) {
                std::optional<RunResult> result = mapRecordFromJson(record);
                if (!result || !reported.insert(result->interval.lo).second)
                    continue;
                found.push_back(std::move(*result));
                if (file && !writeFailed && !file->append(record, writeError))
                    writeFailed = true;
            }
            bar->advance(static_cast<std::size_t>(mapped += bytes));
        },
        &interruptRequested());
    const bool cancelled = ending == WorkDistributor::Ending::Cancelled;
    if (!world.isRoot())
        return cancelled;
    bar->finish();
    if (ending == WorkDistributor::Ending::Cancelled)
        std::cerr << "map: stopped before every rank was done (a rank died, or the job was cancelled)" << std::endl;
    policyMap.seconds = ranks.wallSeconds();
    for (const MapAcrossRanks::RankLoad &load : ranks.loads()) {
        policyMap.replays += load.replays;
        policyMap.joins += load.joins;
        policyMap.busyPerRank.push_back(ranks.wallSeconds() > 0 ? load.busySeconds / (ranks.wallSeconds() * ranks.threads()) : 0);
    }
    std::cerr << "map " << policyMap.identity.heuristic << ": " << world.size() << " ranks x " << ranks.threads()
              << " threads, " << pieces.count() << " pieces; busy per rank";
    for (double busy : policyMap.busyPerRank)
        std::cerr << " " << static_cast<int>(busy * 1000 + 0.5) / 10.0 << "%";
    std::cerr << std::endl;
    policyMap.intervals = sortedIntervals(std::move(found));
    policyMap.summary = summarizeMap(map.range, policyMap.intervals);
    return cancelled;
}

} // namespace

int makeExactMap(const MapOptions &options, ExactMap &map, const MpiWorld *world)
{
    Placement placement;
    placement.world = world && world->distributed() ? world : nullptr;
    auto fail = [&](int status, const std::string &problem) {
        return placement.isRoot() ? reportError(status, problem) : status;
    };
    SweepSettings settings;
    if (const std::string problem = checkOptions(options, settings); !problem.empty())
        return fail(ExitBadUsage, problem);
    if (!options.outPath.empty() && !options.outPath.ends_with(".jsonl"))
        return fail(ExitBadUsage, "--out expects a .jsonl file, got " + options.outPath);
    std::string error;
    if (!options.shard.empty() && !(placement.shard = Shard::parse(options.shard, error)))
        return fail(ExitBadUsage, error);
    if (placement.shard && options.outPath.empty())
        return fail(ExitBadUsage, "--shard needs --out: each shard writes its own file, for merge to join");
    if (options.summaryOnly && options.outPath.empty())
        return fail(ExitBadUsage, "--summary-only needs --out: it summarises the map that file holds");
    std::optional<LoadedTrace> loaded = loadWithBaseline(options.trace);
    if (!(placement.world ? placement.world->allAgree(loaded.has_value()) : loaded.has_value()))
        return ExitBadInput;
    map.trace = std::move(*loaded);
    settings.trace = map.trace.name;
    const std::optional<ByteRange> range = rangeOf(options, map.trace.baseline, error);
    if (!range)
        return fail(ExitBadUsage, error);
    map.range = *range;
    if (const std::string problem = applyKeep(options.keep, *map.trace.program, settings); !problem.empty())
        return fail(ExitBadUsage, problem);

    // Only rank 0 touches the file: it alone knows what is left to walk.
    MapFile file;
    bool opened = true;
    if (!options.outPath.empty() && placement.isRoot()) {
        std::optional<Provenance> provenance = Provenance::describe(
            options.trace, settings, {{"range", {{"from_bytes", map.range.from}, {"to_bytes", map.range.end}}}}, error);
        if (provenance && placement.shard)
            provenance->set("shard", placement.shard->toJson());
        opened = provenance
                 && (options.summaryOnly ? file.inspect(options.outPath, *provenance, error)
                                         : file.open(options.outPath, *provenance, error));
        if (!opened)
            reportError(ExitBadInput, error);
    }
    if (!(placement.world ? placement.world->allAgree(opened) : opened))
        return ExitBadInput;
    MapFile *out = options.outPath.empty() || !placement.isRoot() ? nullptr : &file;
    bool writeFailed = false;
    for (const Policy &policy : settings.policies) {
        PolicyMap policyMap;
        const RunRequest request = planBudget(settings, policy, map.trace.baseline, 0);
        policyMap.config = request.config;
        policyMap.identity = MapIdentity{map.trace.name, policy.name, std::string(simrdRuntimeName(settings.runtime)),
                                         settings.overheadLimit, settings.keep, allocatorKey(settings.allocator)};
        bool stopped = false;
        if (placement.world && !options.summaryOnly)
            stopped = walkPolicyAcrossRanks(options, map, placement, out, policyMap, writeFailed, error);
        else
            walkPolicy(options, map, placement, out, policyMap, writeFailed, error);
        map.maps.push_back(std::move(policyMap));
        stopped = stopped || interruptRequested();
        // Every rank leaves together, or the next policy's collectives would wait forever.
        if (placement.world ? !placement.world->allAgree(!stopped) : stopped) {
            map.interrupted = true;
            break;
        }
    }
    if (!placement.isRoot())
        return ExitOk;
    if (writeFailed || (out && !options.summaryOnly && !file.finish(error)))
        return reportError(ExitBadInput, error);
    if (!map.interrupted && !options.summaryOnly)
        for (PolicyMap &policyMap : map.maps)
            policyMap.edges = explainEdges(*map.trace.program, policyMap.config, policyMap.summary, &interruptRequested());
    map.threads = BudgetWalker(map.trace.program, RunConfig{}, options.threads).threads();
    map.ranks = placement.world ? placement.world->size() : 1;
    return ExitOk;
}

} // namespace rematlens
