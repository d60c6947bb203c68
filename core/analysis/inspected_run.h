#pragma once

#include "../sim/run_recording.h"
#include "../sim/run_request.h"
#include "../sim/run_result.h"

#include <memory>

namespace rematlens {

// A run replayed again with a recorder, for the timeline and the cascade: what was asked,
// what came out, and everything it did.
struct InspectedRun {
    RunRequest request;
    RunResult result;
    RunRecording recording;
};

// Replays one request with a recorder (the caller runs it off the GUI thread).
std::shared_ptr<const InspectedRun> inspectRun(const Program &program, const RunRequest &request);

} // namespace rematlens
