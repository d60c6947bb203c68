// Parse and replay timings for every public DTR trace (Release builds only give meaningful
// numbers). Traces come from REMATLENS_SHARED_DIR or ../shared beside the source tree.
#include "core/sim/baseline.h"
#include "core/sim/replay.h"
#include "core/trace/trace_reader.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <map>

using namespace rematlens;

namespace {

const char *const kTraces[] = {
    "resnet32-56-9000000000.0-2020-10-1-13-3-30-default.log",
    "unet-6-8000000000.0-2020-10-1-10-57-18-default.log",
    "inceptionv4-64-10000000000.0-2020-10-1-10-55-0-default.log",
    "tv_densenet121-84-10000000000.0-2020-10-1-13-41-18-default.log",
    "transformer-10-8000000000.0-2020-10-1-10-56-5-default.log",
    "unroll_gan-512-10000000000.0-2020-10-1-18-43-42-default.log",
    "treelstm-6-8000000000.0-2020-10-1-12-54-1-default.log",
    "lstm-128-11000000000.0-2020-10-1-16-38-52-default.log",
};

std::string tracePath(const char *name)
{
    const char *env = std::getenv("REMATLENS_SHARED_DIR");
    const std::string shared = env ? env : REMATLENS_DEFAULT_SHARED_DIR;
    return shared + "/traces/dtr-2020/" + name;
}

struct Loaded {
    std::shared_ptr<const Program> program;
    Baseline baseline;
};

const Loaded *load(const char *name)
{
    static std::map<std::string, Loaded> cache;
    auto found = cache.find(name);
    if (found != cache.end())
        return &found->second;
    const TraceReadResult read = readTraceFile(tracePath(name));
    if (!read.ok())
        return nullptr;
    return &cache.emplace(name, Loaded{read.program, computeBaseline(*read.program)}).first->second;
}

void parseTrace(benchmark::State &state, const char *name)
{
    if (!std::filesystem::exists(tracePath(name))) {
        state.SkipWithError("public trace not found (set REMATLENS_SHARED_DIR)");
        return;
    }
    for (auto _ : state) {
        TraceReadResult read = readTraceFile(tracePath(name));
        benchmark::DoNotOptimize(read.program);
    }
}

void replayTrace(benchmark::State &state, const char *name, double ratio)
{
    const Loaded *loaded = load(name);
    if (!loaded) {
        state.SkipWithError("public trace not found (set REMATLENS_SHARED_DIR)");
        return;
    }
    RunConfig config;
    config.budget = budgetForRatio(loaded->baseline, ratio);
    config.rematLimit = rematLimitFor(loaded->baseline, 2.0);
    RunResult result;
    for (auto _ : state) {
        result = Replay(*loaded->program, config).run();
        benchmark::DoNotOptimize(result.clock);
    }
    state.SetLabel(std::string(outcomeName(result.outcome)));
}

void registerAll()
{
    for (const char *name : kTraces) {
        const std::string shortName = std::string(name).substr(0, std::string(name).find('-'));
        benchmark::RegisterBenchmark(("parse/" + shortName).c_str(), parseTrace, name)->Unit(benchmark::kMillisecond);
        for (double ratio : {0.2, 0.3, 0.5, 0.7})
            benchmark::RegisterBenchmark(("replay_dtr/" + shortName + "/" + std::to_string(ratio).substr(0, 3)).c_str(),
                                         replayTrace, name, ratio)
                ->Unit(benchmark::kMillisecond);
    }
}

} // namespace

int main(int argc, char **argv)
{
    registerAll();
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
