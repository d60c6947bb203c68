// A replay under the caching allocator (and the best-fit arena) against the same replay under the
// byte sum, on every public DTR trace at budgets 0.3 and 0.5 of the baseline (DTR, eager, overhead
// limit 2). The target: caching costs at most twice the sum. Labels give each run's outcome and
// work, so runs that stop at different points are not mistaken for like with like. At 1.5 no
// model evicts, so all three replay the same schedule and differ only by the allocator's own work.
#include "core/sim/baseline.h"
#include "core/sim/replay.h"

#include "public_traces.h"

#include <benchmark/benchmark.h>

using namespace rematlens;

namespace {

void replayUnder(benchmark::State &state, const char *name, double ratio, AllocatorKind kind)
{
    const LoadedPublicTrace *loaded = loadPublicTrace(name);
    if (!loaded) {
        state.SkipWithError("public trace not found (set REMATLENS_SHARED_DIR)");
        return;
    }
    RunConfig config;
    config.budget = budgetForRatio(loaded->baseline, ratio);
    config.rematLimit = rematLimitFor(loaded->baseline, 2.0);
    config.allocator.kind = kind;
    RunResult result;
    for (auto _ : state) {
        result = Replay(*loaded->program, config).run();
        benchmark::DoNotOptimize(result.clock);
    }
    std::string label = std::string(outcomeName(result.outcome)) + ", " + std::to_string(result.evictions)
                        + " evictions, " + std::to_string(result.remats) + " remats";
    if (result.allocation)
        label += ", fragmentation " + std::to_string(result.allocation->fragmentation()).substr(0, 5);
    state.SetLabel(label);
}

void registerAll()
{
    for (const char *name : kPublicTraces)
        for (double ratio : {0.3, 0.5, 1.5})
            for (AllocatorKind kind : {AllocatorKind::Sum, AllocatorKind::Caching, AllocatorKind::BestFit})
                benchmark::RegisterBenchmark(("allocator/" + shortTraceName(name) + "/" + std::to_string(ratio).substr(0, 3)
                                              + "/" + std::string(allocatorKindName(kind)))
                                                 .c_str(),
                                             replayUnder, name, ratio, kind)
                    ->Unit(benchmark::kMillisecond);
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
