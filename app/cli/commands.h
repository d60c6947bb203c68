#pragma once

#include "allocator_options.h"
#include "command_support.h"
#include "exact_map.h"

#include "core/sim/run_request.h"
#include "core/sweep/sweep_plan.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rematlens {

struct InfoOptions {
    std::string trace;
    bool json = false;
};

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

// What sweep and holes share.
struct GridOptions {
    std::string trace;
    std::string from = "0.1";
    std::string to = "1.0";
    std::string step = "0.01";
    std::vector<std::string> policies;
    std::string runtime = "eager";
    std::string overheadLimit = "2.0";
    int threads = 0;
    std::optional<double> wallLimit;
    std::uint64_t seed = 0;
    std::vector<std::string> keep;
    AllocatorOptions allocator;
};

struct SweepOptions {
    GridOptions grid;
    std::string outPath;
    std::string shard; // "I/N", or empty for the whole grid
};

struct MergeOptions {
    std::vector<std::string> shardPaths;
    std::string outPath;
};

struct HolesOptions {
    GridOptions grid;
    std::string outPath; // the report as JSON lines, after its provenance
    int repeats = 0;
    bool edges = false;
    int samples = 0;
    bool exact = false; // map --from..--to exactly instead of the grid
    bool json = false;
};

// Resolves policies (DTR when none), runtime and overhead limit into settings and checks that
// simrd runs each policy on that runtime; an error message otherwise.
std::string resolveRunSettings(const std::vector<std::string> &policyNames, const std::string &runtimeName,
                               const std::string &overheadLimit, std::uint64_t seed, SweepSettings &settings);

// Checks the grid options that need no trace; fills settings and the grid, or says what is wrong.
std::string prepareGrid(const GridOptions &options, SweepSettings &settings, std::vector<GridPoint> &grid);

// What a grid command's provenance says of its grid: {"grid": {"from", "to", "step"}} as typed.
nlohmann::ordered_json gridScope(const GridOptions &options);

struct CompareOptions {
    GridOptions grid;
    std::string outPath; // the runs' records, resumable as sweep's
    bool json = false;
};

// Resolves --keep against the trace into the settings; an error message when a name is unknown.
std::string applyKeep(const std::vector<std::string> &names, const Program &program, SweepSettings &settings);

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

// rematlens optimal and rematlens checkpoint: budgets as one ratio or a grid of ratios.
struct ScheduleOptions {
    std::string trace;
    std::optional<std::string> ratio;
    std::optional<std::string> from;
    std::optional<std::string> to;
    std::optional<std::string> step;
    double timeLimit = 60;   // optimal: seconds per budget (and per probe of --threshold)
    bool threshold = false;  // optimal: also the smallest budget any schedule fits
    bool json = false;
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
