// Exact maps of the public traces (Release builds only give meaningful numbers): the complete
// U-Net map over 0.10-1.00 and ResNet-32's hole region 0.100-0.110 at overhead limit 60, on
// 2 threads. Counters: intervals, replays, and where in the schedule the replays first flip
// (the share of a replay that the next interval's replay repeats). CPU time is the whole
// process's (both threads), which a shared machine disturbs far less than wall time. Side by side
// with the byte sum, the same ranges under the caching allocator model: cpu_ms_per_interval is
// what one interval of each map costs. The GAN under random choice (seed 0) stands for the
// random rows of the policy atlas, whose maps are the largest by intervals.
#include "core/map/budget_walker.h"
#include "core/map/map_summary.h"
#include "core/sim/policy.h"

#include "public_traces.h"

#include <benchmark/benchmark.h>

#include <ctime>
#include <utility>

using namespace rematlens;

namespace {

void mapRange(benchmark::State &state, const char *name, double from, double to, double overheadLimit,
              std::size_t checkpoints, AllocatorKind model, const char *policy)
{
    const LoadedPublicTrace *loaded = loadPublicTrace(name);
    if (!loaded) {
        state.SkipWithError("public trace not found (set REMATLENS_SHARED_DIR)");
        return;
    }
    RunConfig config;
    config.rematLimit = rematLimitFor(loaded->baseline, overheadLimit);
    config.allocator.kind = model;
    config.policy = *findPolicy(policy);
    const ByteRange range{budgetForRatio(loaded->baseline, from), budgetForRatio(loaded->baseline, to) + 1};
    BudgetWalker walker(loaded->program, config, 2);
    walker.setCheckpointsPerReplay(checkpoints);
    std::size_t intervals = 0;
    std::size_t replays = 0;
    double flipShare = 0;
    std::size_t flips = 0;
    const std::clock_t cpuBefore = std::clock();
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
    const double cpuMs = 1000.0 * static_cast<double>(std::clock() - cpuBefore) / CLOCKS_PER_SEC;
    state.counters["cpu_ms_per_interval"] =
        intervals ? cpuMs / static_cast<double>(state.iterations()) / static_cast<double>(intervals) : 0.0;
    state.counters["intervals"] = static_cast<double>(intervals);
    state.counters["replays"] = static_cast<double>(replays);
    state.counters["flip_at"] = flips ? flipShare / static_cast<double>(flips) : 0.0;
}

// The last argument: checkpoints kept per replay to continue the next from (0: from step 0).
void registerAll()
{
    for (std::size_t checkpoints : {0, 4, 16, 64})
        benchmark::RegisterBenchmark(("unet_0_10_to_1_00/checkpoints:" + std::to_string(checkpoints)).c_str(), mapRange,
                                     kPublicTraces[0], 0.10, 1.00, 2.0, checkpoints, AllocatorKind::Sum, "DTR")
            ->Unit(benchmark::kMillisecond)
            ->MeasureProcessCPUTime()
            ->UseRealTime()
            ->Iterations(3);
    for (std::size_t checkpoints : {0, 16})
        benchmark::RegisterBenchmark(("resnet32_0_1000_to_0_1002_limit_60/checkpoints:" + std::to_string(checkpoints)).c_str(),
                                     mapRange, kPublicTraces[1], 0.1000, 0.1002, 60.0, checkpoints, AllocatorKind::Sum, "DTR")
            ->Unit(benchmark::kMillisecond)
            ->MeasureProcessCPUTime()
            ->UseRealTime()
            ->Iterations(1);
    for (const auto &[label, model] : {std::pair("sum", AllocatorKind::Sum), std::pair("caching", AllocatorKind::Caching)}) {
        benchmark::RegisterBenchmark((std::string("unet_0_10_to_1_00/") + label).c_str(), mapRange, kPublicTraces[0], 0.10,
                                     1.00, 2.0, std::size_t{128}, model, "DTR")
            ->Unit(benchmark::kMillisecond)
            ->MeasureProcessCPUTime()
            ->UseRealTime()
            ->Iterations(3);
        benchmark::RegisterBenchmark((std::string("inceptionv4_0_2500_to_0_2503/") + label).c_str(), mapRange,
                                     kPublicTraces[2], 0.2500, 0.2503, 2.0, std::size_t{128}, model, "DTR")
            ->Unit(benchmark::kMillisecond)
            ->MeasureProcessCPUTime()
            ->UseRealTime()
            ->Iterations(3);
    }
    benchmark::RegisterBenchmark("unroll_gan_0_500_to_0_501/random", mapRange, kPublicTraces[5], 0.500, 0.501, 2.0,
                                 std::size_t{128}, AllocatorKind::Sum, "RandomStorage")
        ->Unit(benchmark::kMillisecond)
        ->MeasureProcessCPUTime()
        ->UseRealTime()
        ->Iterations(3);
    benchmark::RegisterBenchmark("resnet32_0_100_to_0_110_limit_60/checkpoints:16", mapRange, kPublicTraces[1], 0.100,
                                 0.110, 60.0, std::size_t{16}, AllocatorKind::Sum, "DTR")
        ->Unit(benchmark::kSecond)
        ->MeasureProcessCPUTime()
        ->UseRealTime()
        ->Iterations(1);
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
