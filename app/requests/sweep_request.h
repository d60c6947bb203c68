#pragma once

#include "app/requests/grid_options.h"
#include "app/requests/loaded_trace.h"
#include "app/requests/request_outcome.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <vector>

namespace rematlens {

// A sweep run in this process for a face that wants the runs back (the Python module): every
// (policy, allocator model, budget) of the grid, one row per model named in
// options.allocator.models (as the window's strip), run on options.threads, each finished run
// as the record `sweep --out` writes for it. A stop (interruptRequested) keeps what finished.
struct SweepExecution {
    RequestOutcome outcome; // the status; no JSON or text of its own
    std::optional<LoadedTrace> trace;
    std::vector<nlohmann::ordered_json> records; // of the runs that finished, in plan order
    std::size_t planned = 0;
    bool interrupted = false;
};

SweepExecution executeSweep(const GridOptions &options);

} // namespace rematlens
