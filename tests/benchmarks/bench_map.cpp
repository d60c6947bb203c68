// Exact maps of the public traces (Release builds only give meaningful numbers): the complete
// U-Net map over 0.10-1.00 and ResNet-32's hole region 0.100-0.110 at overhead limit 60, on
// 2 threads. Counters: intervals, replays, and where in the schedule the replays first flip
// (the share of a replay that the next interval's replay repeats).
#include "core/map/budget_walker.h"
#include "core/map/map_summary.h"

#include "public_traces.h"

#include <benchmark/benchmark.h>

using namespace rematlens;

namespace {

void mapRange(benchmark::State &state, const char *name, double from, double to, double overheadLimit)
{
    const LoadedPublicTrace *loaded = loadPublicTrace(name);
    if (!loaded) {
        state.SkipWithError("public trace not found (set REMATLENS_SHARED_DIR)");
        return;
    }
    RunConfig config;
    config.rematLimit = rematLimitFor(loaded->baseline, overheadLimit);
    const ByteRange range{budgetForRatio(loaded->baseline, from), budgetForRatio(loaded->baseline, to) + 1};
    BudgetWalker walker(loaded->program, config, 2);
    std::size_t intervals = 0;
    std::size_t replays = 0;
    double flipShare = 0;
    std::size_t flips = 0;
    for (auto _ : state) {
        intervals = 0;
        flipShare = 0;
        flips = 0;
        const MapWalkEnd end = walker.walk({range}, nullptr, [&](const RunResult &r) {
            ++intervals;
            if (r.flip) {
                flipShare += static_cast<double>(r.flip->step) / static_cast<double>(loaded->program->schedule.size());
                ++flips;
            }
        });
        replays = end.replays;
    }
    state.counters["intervals"] = static_cast<double>(intervals);
    state.counters["replays"] = static_cast<double>(replays);
    state.counters["flip_at"] = flips ? flipShare / static_cast<double>(flips) : 0.0;
}

} // namespace

BENCHMARK_CAPTURE(mapRange, unet_0_10_to_1_00, kPublicTraces[0], 0.10, 1.00, 2.0)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);
BENCHMARK_CAPTURE(mapRange, resnet32_0_100_to_0_110_limit_60, kPublicTraces[1], 0.100, 0.110, 60.0)
    ->Unit(benchmark::kSecond)
    ->UseRealTime()
    ->Iterations(1);

BENCHMARK_MAIN();
