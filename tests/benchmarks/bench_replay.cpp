// Parse and replay timings for every public DTR trace (Release builds only give meaningful
// numbers). Traces come from REMATLENS_SHARED_DIR or ../shared beside the source tree.
#include "core/sim/baseline.h"
#include "core/sim/replay.h"
#include "core/trace/trace_reader.h"

#include "public_traces.h"

#include <benchmark/benchmark.h>

#include <filesystem>
#include <map>

using namespace rematlens;

namespace {

void parseTrace(benchmark::State &state, const char *name)
{
    if (!std::filesystem::exists(publicTracePath(name))) {
        state.SkipWithError("public trace not found (set REMATLENS_SHARED_DIR)");
        return;
    }
    for (auto _ : state) {
        TraceReadResult read = readTraceFile(publicTracePath(name));
        benchmark::DoNotOptimize(read.program);
    }
}

void replayTrace(benchmark::State &state, const char *name, double ratio)
{
    const LoadedPublicTrace *loaded = loadPublicTrace(name);
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
    for (const char *name : kPublicTraces) {
        const std::string shortName = shortTraceName(name);
        benchmark::RegisterBenchmark(("parse/" + shortName).c_str(), parseTrace, name)->Unit(benchmark::kMillisecond);
        for (double ratio : {0.2, 0.3, 0.5, 0.7, 1.0})
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
