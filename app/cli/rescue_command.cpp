// rematlens rescue: which single storage, kept resident, turns a failing run into a passing one.
#include "commands.h"
#include "interrupt.h"
#include "progress_bar.h"
#include "run_report.h"

#include "core/analysis/rescue_search.h"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>

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

void printText(const RunRequest &request, const RescueReport &report, const LoadedTrace &trace, double seconds)
{
    std::cout << runToText(request, report.original, trace.baseline);
    if (!isFailure(report.original.outcome)) {
        std::cout << "  the run does not fail: nothing to rescue\n";
        return;
    }
    std::cout << "  tried keeping each of the " << report.candidates << " storages the policy evicted (" << report.tried
              << " runs in " << seconds << " s)\n";
    if (report.rescues.empty())
        std::cout << "  no single storage kept resident makes the run pass\n";
    else
        std::cout << "  " << report.rescues.size() << " make it pass; best first:\n";
    for (const Rescue &r : report.rescues) {
        char overhead[32];
        std::snprintf(overhead, sizeof overhead, "%.4f", r.overhead);
        std::cout << "    " << trace.program->tensors[r.tensor].name << "  ("
                  << groupDigits(trace.program->storages[trace.program->storageOf(r.tensor)].size) << " B)  clock "
                  << groupDigits(r.result.clock) << "  overhead " << overhead << "x\n";
    }
}

} // namespace

int runRescueCommand(const RescueOptions &options)
{
    if (!findPolicy(options.run.policy))
        return reportError(ExitBadUsage,
                           "unknown policy \"" + options.run.policy + "\" (rematlens policies lists them)");
    const std::optional<LoadedTrace> loaded = loadWithBaseline(options.run.trace);
    if (!loaded)
        return ExitBadInput;
    RunRequest request;
    request.trace = loaded->name;
    if (const std::string problem = configureRun(options.run, *loaded, request); !problem.empty())
        return reportError(ExitBadUsage, problem);

    watchInterrupts();
    const auto started = std::chrono::steady_clock::now();
    const SweepRunner runner(loaded->program, options.threads);
    std::unique_ptr<ProgressBar> bar;
    const RescueReport report = RescueSearch(runner, loaded->baseline)
                                    .search(request, &interruptRequested(), [&](std::size_t done, std::size_t total) {
                                        if (!bar)
                                            bar = std::make_unique<ProgressBar>("rescue", total);
                                        bar->advance(done);
                                    });
    if (bar)
        bar->finish();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (report.interrupted)
        return reportError(ExitInterrupted, "interrupted; the list of rescues would be incomplete, so none is printed");
    if (options.json)
        std::cout << reportJson(request, report, *loaded, seconds).dump(2) << std::endl;
    else
        printText(request, report, *loaded, seconds);
    return ExitOk;
}

} // namespace rematlens
