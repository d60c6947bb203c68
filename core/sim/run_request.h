#pragma once

#include "run_config.h"

#include <string>
#include <vector>

namespace rematlens {

// One run as it was asked for, reported next to its result: the trace's display name, the
// configuration, and the budget as a ratio of the baseline memory.
struct RunRequest {
    std::string trace;
    RunConfig config;
    double ratio = 0;
    double overheadLimit = 2.0;
    std::vector<std::string> keep; // names of config.keepResident, as the trace spells them
};

} // namespace rematlens
