// rematlens verify: replays a seeded sample of a results file's records with RematLens again,
// after checking that the trace is the one the file was made from, and reports any difference.
#include "commands.h"
#include "app/requests/request_reporter.h"
#include "app/requests/loaded_trace.h"
#include "app/requests/run_options.h"
#include "app/formats/provenance.h"
#include "app/formats/results_file.h"
#include "app/reports/run_report.h"

#include "core/sim/replay.h"

#include <algorithm>
#include <iostream>
#include <numeric>
#include <random>

namespace rematlens {

namespace {

using Json = nlohmann::ordered_json;

// The request that made a record; an error message when the record cannot be replayed.
std::string requestFor(const Json &record, const LoadedTrace &trace, std::uint64_t seed, RunRequest &request)
{
    RunOptions run;
    run.policy = record.value("heuristic", std::string());
    run.runtime = record.value("runtime", std::string());
    run.overheadLimit = Json(record.value("overhead_limit", 2.0)).dump();
    run.seed = seed;
    run.keep = record.value("keep", std::vector<std::string>());
    run.budget = record.value("budget", std::int64_t{-1});
    request.trace = trace.name;
    std::string problem = configureRun(run, trace, request);
    request.ratio = record.value("ratio", request.ratio);
    if (const auto allocator = record.find("allocator"); problem.empty() && allocator != record.end()) {
        const std::optional<AllocatorConfig> config =
            allocator->is_string() ? parseAllocatorKey(allocator->get<std::string>()) : std::nullopt;
        if (!config)
            return "the record's allocator " + allocator->dump() + " is not one this version knows";
        request.config.allocator = *config;
    }
    return problem;
}

// The fields of ours that differ from the record's (wall time aside).
std::string differences(const Json &record, const Json &ours)
{
    std::string found;
    for (const auto &[field, value] : ours.items()) {
        if (field == "seconds" || field == "trace" || record.value(field, Json()) == value)
            continue;
        if (field == "seed" && !record.contains(field))
            continue; // written before records carried it: the replay used the header's seed
        found += (found.empty() ? "" : "; ") + field + ": file " + record.value(field, Json()).dump() + ", now "
                 + value.dump();
    }
    return found;
}

std::vector<std::size_t> sample(std::size_t count, std::size_t wanted, std::uint64_t seed)
{
    std::vector<std::size_t> order(count);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::mt19937_64 random(seed);
    std::shuffle(order.begin(), order.end(), random);
    order.resize(std::min(wanted, count));
    std::sort(order.begin(), order.end());
    return order;
}

} // namespace

int runVerifyCommand(const VerifyOptions &options)
{
    std::string error;
    const std::optional<ResultsFile> results = ResultsFile::read(options.resultsPath, options.tracePath, error);
    if (!results)
        return reportError(ExitBadInput, error);
    const std::string &trace = results->tracePath();
    const std::optional<std::string> sha = Provenance::sha256OfTrace(trace, error);
    if (!sha)
        return reportError(ExitBadInput, error);
    if (*sha != results->provenance().traceSha256())
        return reportError(ExitBadInput, trace + ": its SHA-256 is " + *sha + ", but " + options.resultsPath
                                             + " was made from a trace whose SHA-256 is "
                                             + results->provenance().traceSha256());
    const std::optional<LoadedTrace> loaded = loadWithBaseline(trace);
    if (!loaded)
        return ExitBadInput;
    const std::uint64_t runSeed = results->provenance().seed();
    std::size_t same = 0;
    std::size_t differ = 0;
    for (std::size_t i : sample(results->records().size(), options.samples, options.seed)) {
        const Json &record = results->records()[i];
        const std::string label = record.value("heuristic", std::string()) + " "
                                  + record.value("runtime", std::string()) + " budget "
                                  + Json(record.value("budget", std::int64_t{0})).dump();
        RunRequest request;
        const std::uint64_t seed = record.value("seed", runSeed); // a row's own seed (the window's runs)
        if (const std::string problem = requestFor(record, *loaded, seed, request); !problem.empty()) {
            std::cout << label << ": cannot replay: " << problem << "\n";
            ++differ;
            continue;
        }
        const RunResult result = Replay(*loaded->program, request.config).run();
        const std::string found = differences(record, runToJson(request, result, loaded->baseline));
        std::cout << label << ": " << (found.empty() ? "same" : "differs: " + found) << "\n";
        ++(found.empty() ? same : differ);
    }
    std::cout << "verify: " << same << " same, " << differ << " differ, of " << results->records().size()
              << " records in " << options.resultsPath << std::endl;
    return differ == 0 ? ExitOk : ExitBadInput;
}

} // namespace rematlens
