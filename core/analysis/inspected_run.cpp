#include "inspected_run.h"

#include "../sim/replay.h"

namespace rematlens {

std::shared_ptr<const InspectedRun> inspectRun(const Program &program, const RunRequest &request)
{
    auto run = std::make_shared<InspectedRun>();
    run->request = request;
    RunConfig config = request.config;
    config.recording = &run->recording;
    run->result = Replay(program, config).run();
    // The stored request must not point at the caller's recorder or cancel flag.
    run->request.config.recording = nullptr;
    run->request.config.cancel = nullptr;
    return run;
}

} // namespace rematlens
