#pragma once

#include "command_support.h"

#include "core/sweep/sweep_plan.h"

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
    int repeats = 0;
    bool edges = false;
    int samples = 0;
    bool json = false;
};

// Checks the grid options that need no trace; fills settings and the grid, or says what is wrong.
std::string prepareGrid(const GridOptions &options, SweepSettings &settings, std::vector<GridPoint> &grid);

struct SynthCommandOptions {
    bool list = false;
    std::string preset;
    std::optional<int> layers;
    std::optional<int> batch;
    std::uint64_t seed = 0;
    std::string outPath;
};

int runInfoCommand(const InfoOptions &options);
int runSynthCommand(const SynthCommandOptions &options);
int runRunCommand(const RunOptions &options);
int runPoliciesCommand();
int runSweepCommand(const SweepOptions &options);
int runHolesCommand(const HolesOptions &options);
int runMergeCommand(const MergeOptions &options);

} // namespace rematlens
