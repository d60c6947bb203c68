#pragma once

#include "app/requests/allocator_options.h"

#include "core/sweep/sweep_plan.h"
#include "core/trace/program.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rematlens {

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

struct HolesOptions {
    GridOptions grid;
    std::string outPath; // the report as JSON lines, after its provenance
    int repeats = 0;
    bool edges = false;
    int samples = 0;
    bool exact = false; // map --from..--to exactly instead of the grid
    bool json = false;
};

struct CompareOptions {
    GridOptions grid;
    std::string outPath; // the runs' records, resumable as sweep's
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

// Resolves --keep against the trace into the settings; an error message when a name is unknown.
std::string applyKeep(const std::vector<std::string> &names, const Program &program, SweepSettings &settings);

} // namespace rematlens
