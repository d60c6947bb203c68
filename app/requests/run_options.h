#pragma once

#include "app/requests/allocator_options.h"
#include "app/requests/loaded_trace.h"

#include "core/sim/run_request.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rematlens {

struct RunOptions {
    std::string trace;
    std::optional<std::string> ratio;  // kept as text: parsed once, correctly rounded
    std::optional<std::int64_t> budget;
    std::string policy = "DTR";
    std::string runtime = "eager";
    std::string overheadLimit = "2.0";
    std::uint64_t seed = 0;
    std::string eventsPath;
    std::vector<std::string> keep; // tensor names kept resident
    AllocatorOptions allocator;
    bool json = false;
};

// Builds one run's request from the options (policy, runtime, limits, --keep, budget); an error
// message on bad usage.
std::string configureRun(const RunOptions &options, const LoadedTrace &trace, RunRequest &request);

// rematlens diff: two budgets of one configuration (run's options with ratios instead of one).
struct DiffOptions {
    RunOptions run;
    std::vector<std::string> ratios; // exactly two
    std::int64_t lockedThreshold = std::int64_t{256} << 20;
    bool json = false;
};

// rematlens rescue: which single storage, kept resident, makes a failing run pass.
struct RescueOptions {
    RunOptions run;
    int threads = 0;
    bool json = false;
};

// rematlens explain: why a hole exists, told at both its edges; or every hole of a saved map.
struct ExplainOptions {
    RunOptions run;                     // run.trace: a trace, or a map file (FILE.jsonl) for every hole
    std::vector<std::string> ratios;    // one budget inside the hole, or a pair (pass and fail)
    std::vector<std::int64_t> budgets;  // the same in bytes
    std::optional<int> hole;            // with a map: its K-th hole (from 1)
    std::string mapPath;                // --map FILE.jsonl with a trace
    std::string tracePath;              // the trace of a map file, when not beside it
    bool rescueOn = false;              // --rescue; by default on for one hole, off for every hole of a map
    bool rescueOff = false;             // --no-rescue
    bool pairOnly = false;              // --pair-only: tell the two budgets' story, without the hole's edges
    int threads = 0;
    bool json = false;
};

} // namespace rematlens
