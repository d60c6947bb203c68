// rematlens diff: where the histories of two budgets of one configuration separate.
#include "commands.h"
#include "app/requests/request_reporter.h"
#include "app/requests/loaded_trace.h"
#include "app/requests/run_options.h"
#include "app/reports/divergence_report.h"
#include "app/reports/run_report.h"

#include "core/analysis/run_diff.h"
#include "core/sim/replay.h"

#include <tbb/parallel_invoke.h>

#include <iostream>
#include <sstream>

namespace rematlens {

namespace {

using Json = nlohmann::ordered_json;

struct RecordedRun {
    RunRequest request;
    RunRecording recording;
    RunResult result;
};

Json diffJson(const RecordedRun &a, const RecordedRun &b, const RunDiff &diff, const LoadedTrace &trace,
              Bytes threshold)
{
    Json j;
    j["a"] = runToJson(a.request, a.result, trace.baseline);
    j["b"] = runToJson(b.request, b.result, trace.baseline);
    j["events_a"] = referenceEvents(a.recording).size();
    j["events_b"] = referenceEvents(b.recording).size();
    j["first_divergence"] = firstDivergenceJson(diff, *trace.program);
    j["locked_threshold"] = threshold;
    j["locked_divergence_step"] = diff.locked ? Json(diff.locked->step) : Json();
    j["locked_bytes_at_divergence"] = diff.locked ? Json{{"a", diff.locked->a}, {"b", diff.locked->b}} : Json();
    j["after_divergence"] = Json{{"a", runTailJson(diff.tailA)}, {"b", runTailJson(diff.tailB)}};
    return j;
}

std::string describeRun(const RecordedRun &run)
{
    std::ostringstream out;
    out << "ratio " << run.request.ratio << " (" << groupDigits(run.request.config.budget)
        << " B): " << outcomeName(run.result.outcome);
    if (run.result.failure)
        out << ", " << groupDigits(run.result.failure->bytesShort) << " B short allocating "
            << run.result.failure->tensor << " at step " << run.result.failure->step;
    return out.str();
}

void printText(const RecordedRun &a, const RecordedRun &b, const RunDiff &diff, const LoadedTrace &trace,
               Bytes threshold)
{
    const Program &program = *trace.program;
    std::cout << trace.name << "  " << a.request.config.policy.name << ", " << runtimeName(a.request.config.runtime)
              << " runtime\n";
    std::cout << "  A  " << describeRun(a) << "\n";
    std::cout << "  B  " << describeRun(b) << "\n";
    if (!diff.firstDivergence) {
        std::cout << "  the runs evict and rematerialize exactly the same storages in the same order\n";
    } else {
        std::cout << "  first divergence at event " << *diff.firstDivergence << " (the first " << *diff.firstDivergence
                  << " evictions and rematerializations are identical)\n";
        std::cout << "    A  " << describeDivergenceEvent(diff.a, program) << "\n";
        std::cout << "    B  " << describeDivergenceEvent(diff.b, program) << "\n";
    }
    if (diff.locked)
        std::cout << "  locked bytes first differ by more than " << groupDigits(threshold) << " B at step "
                  << diff.locked->step << ": A " << groupDigits(diff.locked->a) << " B, B "
                  << groupDigits(diff.locked->b) << " B\n";
    else
        std::cout << "  locked bytes never differ by more than " << groupDigits(threshold) << " B at a step's end\n";
    std::cout << "  from the divergence on\n";
    std::cout << "    A  " << describeRunTail(diff.tailA) << "\n";
    std::cout << "    B  " << describeRunTail(diff.tailB) << "\n";
}

} // namespace

int runDiffCommand(const DiffOptions &options)
{
    if (options.ratios.size() != 2)
        return reportError(ExitBadUsage, "diff expects --ratio twice (the two budgets to compare)");
    if (options.lockedThreshold < 0)
        return reportError(ExitBadUsage, "--threshold expects a non-negative number of bytes");
    if (!findPolicy(options.run.policy))
        return reportError(ExitBadUsage,
                           "unknown policy \"" + options.run.policy + "\" (rematlens policies lists them)");
    const std::optional<LoadedTrace> loaded = loadWithBaseline(options.run.trace);
    if (!loaded)
        return ExitBadInput;
    RecordedRun runs[2];
    for (int i = 0; i < 2; ++i) {
        RunOptions one = options.run;
        one.ratio = options.ratios[static_cast<std::size_t>(i)];
        runs[i].request.trace = loaded->name;
        if (const std::string problem = configureRun(one, *loaded, runs[i].request); !problem.empty())
            return reportError(ExitBadUsage, problem);
        runs[i].request.config.recording = &runs[i].recording;
    }
    const auto replay = [&](RecordedRun &run) { run.result = Replay(*loaded->program, run.request.config).run(); };
    tbb::parallel_invoke([&] { replay(runs[0]); }, [&] { replay(runs[1]); });
    const RunDiff diff = diffRuns(runs[0].recording, runs[1].recording, options.lockedThreshold);
    if (options.json)
        std::cout << diffJson(runs[0], runs[1], diff, *loaded, options.lockedThreshold).dump(2) << std::endl;
    else
        printText(runs[0], runs[1], diff, *loaded, options.lockedThreshold);
    return ExitOk;
}

} // namespace rematlens
