#pragma once

#include "app/requests/allocator_options.h"
#include "app/requests/run_options.h"
#include "app/requests/grid_options.h"
#include "app/requests/loaded_trace.h"
#include "app/requests/request_reporter.h"
#include "app/requests/request_settings.h"
#include "app/distribution/map_merge.h"
#include "app/requests/exact_map.h"
#include "app/requests/request_outcome.h"
#include "app/requests/single_run.h"
#include "app/requests/schedule_budgets.h"

#include "core/sim/run_request.h"
#include "core/sweep/sweep_plan.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rematlens {

// rematlens confirm: a Python script that replays a results file's records with unmodified simrd.
struct ConfirmOptions {
    std::string resultsPath;
    std::string simrdDir;   // --simrd, else $SIMRD; empty: write the script only
    std::string only = "all"; // "holes": only the runs that make holes (and their passing neighbours)
    int repeats = 1;
    std::string scriptPath; // default: beside the results, FILE.confirm.py
    std::string tracePath;  // default: found from the provenance's trace name
};

// rematlens verify: a seeded sample of a results file's records replayed by RematLens again.
struct VerifyOptions {
    std::string resultsPath;
    std::size_t samples = 20;
    std::uint64_t seed = 1;
    std::string tracePath;
};

struct SynthCommandOptions {
    bool list = false;
    std::string preset;
    std::optional<int> layers;
    std::optional<int> batch;
    std::uint64_t seed = 0;
    std::string outPath;
};

// rematlens traces download | status (directory empty: PublicTraceSet::defaultDirectory()).
struct TracesDownloadOptions {
    std::string directory;
    std::string url; // empty: the published archive, or REMATLENS_TRACES_URL
};

struct TracesStatusOptions {
    std::string directory;
};

int runInfoCommand(const InfoOptions &options);
int runSynthCommand(const SynthCommandOptions &options);
int runRunCommand(const RunOptions &options);
int runPoliciesCommand();
// Prints the request's result (its JSON, indented by `indent` (-1: on one line), or its text)
// when it succeeded; its exit status.
int printOutcome(const RequestOutcome &outcome, bool json, int indent = 2);
int runSweepCommand(const SweepOptions &options);
int runHolesCommand(const HolesOptions &options);
int runCompareCommand(const CompareOptions &options);
int runDiffCommand(const DiffOptions &options);
int runRescueCommand(const RescueOptions &options);
int runExplainCommand(const ExplainOptions &options);
int runMergeCommand(const MergeOptions &options);
int runTracesDownloadCommand(const TracesDownloadOptions &options);
int runTracesStatusCommand(const TracesStatusOptions &options);
int runConfirmCommand(const ConfirmOptions &options);
int runVerifyCommand(const VerifyOptions &options);
int runMapCommand(const MapOptions &options);
int runOptimalCommand(const ScheduleOptions &options);
int runCheckpointCommand(const ScheduleOptions &options);

} // namespace rematlens
