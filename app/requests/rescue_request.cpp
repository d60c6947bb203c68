#include "app/requests/rescue_request.h"

#include "app/requests/loaded_trace.h"
#include "app/requests/run_options.h"
#include "app/requests/request_reporter.h"
#include "app/requests/progress_bar.h"
#include "app/reports/run_report.h"

#include "app/mpi/byte_pack.h"
#include "app/distribution/runs_across_ranks.h"

#include "core/analysis/rescue_search.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <memory>
#include <optional>

namespace rematlens {

namespace {

using Json = nlohmann::ordered_json;

Json reportJson(const RunRequest &request, const RescueReport &report, const LoadedTrace &trace, double seconds)
{
    Json rescues = Json::array();
    for (const Rescue &r : report.rescues)
        rescues.push_back(Json{{"tensor", trace.program->tensors[r.tensor].name},
                               {"bytes", trace.program->storages[trace.program->storageOf(r.tensor)].size},
                               {"clock", r.result.clock},
                               {"overhead", r.overhead},
                               {"first_evicted_at", r.firstEvicted}});
    Json j;
    j["run"] = runToJson(request, report.original, trace.baseline);
    j["candidates"] = report.candidates;
    j["tried"] = report.tried;
    j["rescues"] = rescues;
    j["seconds"] = seconds;
    return j;
}

std::string textOf(const RunRequest &request, const RescueReport &report, const LoadedTrace &trace, double seconds)
{
    std::ostringstream out;
    out << runToText(request, report.original, trace.baseline);
    if (!isFailure(report.original.outcome)) {
        out << "  the run does not fail: nothing to rescue\n";
        return out.str();
    }
    out << "  tried keeping each of the " << report.candidates << " storages the policy evicted (" << report.tried
              << " runs in " << seconds << " s)\n";
    if (report.rescues.empty())
        out << "  no single storage kept resident makes the run pass\n";
    else
        out << "  " << report.rescues.size() << " make it pass; best first:\n";
    for (const Rescue &r : report.rescues) {
        char overhead[32];
        std::snprintf(overhead, sizeof overhead, "%.4f", r.overhead);
        out << "    " << trace.program->tensors[r.tensor].name << "  ("
                  << groupDigits(trace.program->storages[trace.program->storageOf(r.tensor)].size) << " B)  clock "
                  << groupDigits(r.result.clock) << "  overhead " << overhead << "x\n";
    }
    return out.str();
}

// What rank 0 shares: empty when there is nothing to run; else the count of requests, then each
// one's count of kept tensors and their ids.
std::string packKeeps(const std::vector<RunRequest> &requests)
{
    std::string bytes;
    putNumber(bytes, requests.size());
    for (const RunRequest &r : requests) {
        putNumber(bytes, r.config.keepResident.size());
        for (TensorId t : r.config.keepResident)
            putNumber(bytes, t);
    }
    return bytes;
}

std::vector<RunRequest> unpackKeeps(const std::string &bytes, const RunRequest &request)
{
    std::size_t offset = 0;
    std::vector<RunRequest> requests(getNumber(bytes, offset), request);
    for (RunRequest &r : requests) {
        r.config.keepResident.resize(getNumber(bytes, offset));
        for (TensorId &t : r.config.keepResident)
            t = static_cast<TensorId>(getNumber(bytes, offset));
    }
    return requests;
}

// The candidate runs of a rescue spread over the ranks of an MPI job. Rank 0 alone replays the
// failing run and then shares what each candidate keeps resident (the candidates differ from the
// asked run in nothing else), so the ranks cannot disagree on what there is to run.
class CandidatesAcrossRanks {
public:
    CandidatesAcrossRanks(const MpiWorld &world, const SweepRunner &runner, const Baseline &baseline, int threads)
        : m_world(world), m_runs(world, runner, baseline, threads)
    {
    }

    // Rank 0, as the search's candidate runner.
    std::vector<RunResult> run(const std::vector<RunRequest> &requests, const std::atomic<bool> *cancel,
                               const std::function<void(std::size_t)> &done)
    {
        std::string shared = packKeeps(requests);
        m_world.broadcast(shared);
        m_shared = true;
        return m_runs.run(requests, cancel, done);
    }

    // Rank 0, once the search is over: the other ranks wait for candidates, even when the run
    // passed or was interrupted before there were any.
    void finish()
    {
        std::string nothing;
        if (!m_shared)
            m_world.broadcast(nothing);
    }

    // The other ranks: run the candidates rank 0 shares, built on the same request as its own.
    void follow(const RunRequest &request, const std::atomic<bool> *cancel)
    {
        std::string shared;
        m_world.broadcast(shared);
        if (!shared.empty())
            m_runs.run(unpackKeeps(shared, request), cancel, {});
    }

private:
    const MpiWorld &m_world;
    RunsAcrossRanks m_runs;
    bool m_shared = false;
};

// Rank 0's search, its candidates spread over the ranks when there are several.
RescueReport searchWithProgress(const SweepRunner &runner, const LoadedTrace &trace, const RunRequest &request,
                                CandidatesAcrossRanks *spread)
{
    RescueSearch search(runner, trace.baseline);
    if (spread)
        search.setCandidateRunner([spread](const std::vector<RunRequest> &requests, const std::atomic<bool> *cancel,
                                           const std::function<void(std::size_t)> &done) {
            return spread->run(requests, cancel, done);
        });
    std::unique_ptr<ProgressBar> bar;
    const RescueReport report =
        search.search(request, &interruptRequested(), [&](std::size_t done, std::size_t total) {
            if (!bar)
                bar = std::make_unique<ProgressBar>("rescue", total);
            bar->advance(done);
        });
    if (bar)
        bar->finish();
    if (spread)
        spread->finish();
    return report;
}

} // namespace

RequestOutcome executeRescue(const RescueOptions &options, const MpiWorld &world)
{
    if (!findPolicy(options.run.policy))
        return RequestOutcome::failed(usageError(world, "unknown policy \"" + options.run.policy + "\" (rematlens policies lists them)"));
    const std::optional<LoadedTrace> loaded = loadWithBaseline(options.run.trace);
    if (!world.allAgree(loaded.has_value()))
        return RequestOutcome::failed(ExitBadInput);
    RunRequest request;
    request.trace = loaded->name;
    if (const std::string problem = configureRun(options.run, *loaded, request); !problem.empty())
        return RequestOutcome::failed(usageError(world, problem));

    const SweepRunner runner(loaded->program, options.threads);
    std::optional<CandidatesAcrossRanks> spread;
    if (world.distributed())
        spread.emplace(world, runner, loaded->baseline, options.threads);
    if (!world.isRoot()) {
        spread->follow(request, &interruptRequested());
        return RequestOutcome::failed(interruptRequested() ? ExitInterrupted : ExitOk);
    }
    const auto started = std::chrono::steady_clock::now();
    const RescueReport report = searchWithProgress(runner, *loaded, request, spread ? &*spread : nullptr);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (report.interrupted)
        return RequestOutcome::failed(
            reportError(ExitInterrupted, "interrupted; the list of rescues would be incomplete, so none is given"));
    RequestOutcome outcome;
    outcome.json = reportJson(request, report, *loaded, seconds);
    outcome.text = textOf(request, report, *loaded, seconds);
    return outcome;
}

} // namespace rematlens
