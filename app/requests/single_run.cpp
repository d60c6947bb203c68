#include "app/requests/single_run.h"

#include "app/formats/capture_info.h"
#include "app/reports/run_report.h"
#include "app/requests/request_settings.h"

#include "core/sim/replay.h"

namespace rematlens {

RequestOutcome executeInfo(const InfoOptions &options)
{
    const std::optional<LoadedTrace> loaded = loadWithBaseline(options.trace);
    if (!loaded)
        return RequestOutcome::failed(ExitBadInput);
    RequestOutcome outcome;
    outcome.json = infoToJson(loaded->name, *loaded->program, loaded->baseline);
    addCaptureInfo(outcome.json, *loaded);
    outcome.text = infoToText(loaded->name, *loaded->program, loaded->baseline) + captureInfoText(*loaded);
    return outcome;
}

RunExecution executeRun(const RunOptions &options, RunRecording *recording)
{
    RunExecution run;
    // Usage problems that need no trace are reported before reading it.
    if (std::string error; !resolvePolicies({options.policy}, error)) {
        run.outcome = RequestOutcome::failed(reportError(ExitBadUsage, error));
        return run;
    }
    run.trace = loadWithBaseline(options.trace);
    if (!run.trace) {
        run.outcome = RequestOutcome::failed(ExitBadInput);
        return run;
    }
    run.request.trace = run.trace->name;
    if (const std::string problem = configureRun(options, *run.trace, run.request); !problem.empty()) {
        run.outcome = RequestOutcome::failed(reportError(ExitBadUsage, problem));
        return run;
    }
    run.request.config.recording = recording;
    run.result = Replay(*run.trace->program, run.request.config).run();
    run.request.config.recording = nullptr;
    run.outcome.json = runToJson(run.request, run.result, run.trace->baseline);
    run.outcome.text = runToText(run.request, run.result, run.trace->baseline);
    return run;
}

} // namespace rematlens
