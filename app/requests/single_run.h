#pragma once

#include "app/requests/loaded_trace.h"
#include "app/requests/request_outcome.h"
#include "app/requests/run_options.h"

#include "core/sim/run_recording.h"
#include "core/sim/run_result.h"

#include <optional>
#include <string>

namespace rematlens {

// info: a trace's baseline memory and compute, constants, bottleneck and sizes, and what its
// capture's side file says.
struct InfoOptions {
    std::string trace;
    bool json = false;
};

RequestOutcome executeInfo(const InfoOptions &options);

// run: one budget replayed. The trace and the run come back beside the outcome (its record as
// JSON, its text report), and `recording`, when given, receives its events and memory samples.
struct RunExecution {
    RequestOutcome outcome;
    std::optional<LoadedTrace> trace;
    RunRequest request;
    RunResult result;
};

RunExecution executeRun(const RunOptions &options, RunRecording *recording = nullptr);

} // namespace rematlens
