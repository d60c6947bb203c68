// Wall time of full budget sweeps (0.1 to 1.0, step 0.001: 901 budgets, DTR) of every public
// trace on 1 and 2 threads, with the holes found and the process's peak memory.
#include "core/sim/baseline.h"
#include "core/sweep/hole_finder.h"
#include "core/sweep/sweep_plan.h"
#include "core/sweep/sweep_runner.h"
#include "core/trace/trace_reader.h"

#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <cstdlib>
#include <filesystem>

using namespace rematlens;

namespace {

const char *const kTraces[] = {
    "unet-6-8000000000.0-2020-10-1-10-57-18-default.log",
    "resnet32-56-9000000000.0-2020-10-1-13-3-30-default.log",
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
    return std::string(env ? env : REMATLENS_DEFAULT_SHARED_DIR) + "/traces/dtr-2020/" + name;
}

void sweepTrace(benchmark::State &state, const char *name)
{
    const TraceReadResult read = readTraceFile(tracePath(name));
    if (!read.ok()) {
        state.SkipWithError("public trace not found (set REMATLENS_SHARED_DIR)");
        return;
    }
    const Baseline baseline = computeBaseline(*read.program);
    std::string error;
    const std::vector<GridPoint> grid = *DecimalGrid::make("0.1", "1.0", "0.001", error);
    SweepSettings settings;
    settings.trace = name;
    settings.policies = {*findPolicy("DTR")};
    const std::vector<RunRequest> requests = planSweep(settings, baseline, grid);
    const SweepRunner runner(read.program, static_cast<int>(state.range(0)));
    std::vector<BudgetOutcome> outcomes(requests.size());
    for (auto _ : state) {
        runner.run(requests, nullptr, [&](std::size_t i, const RunResult &r) {
            outcomes[i] = {requests[i].ratio, requests[i].config.budget, r.outcome};
        });
    }
    const HoleReport report = findHoles(outcomes);
    std::size_t passes = 0;
    for (const BudgetOutcome &o : outcomes)
        passes += o.outcome == Outcome::Pass ? 1 : 0;
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    state.counters["runs"] = static_cast<double>(requests.size());
    state.counters["pass"] = static_cast<double>(passes);
    state.counters["holes"] = static_cast<double>(report.holes.size());
    state.counters["peak_MiB"] = static_cast<double>(usage.ru_maxrss) / 1024.0;
}

} // namespace

int main(int argc, char **argv)
{
    for (const char *name : kTraces) {
        const std::string shortName = std::string(name).substr(0, std::string(name).find('-'));
        benchmark::RegisterBenchmark(("sweep_dtr_0.1-1.0_step0.001/" + shortName).c_str(), sweepTrace, name)
            ->Arg(1)
            ->Arg(2)
            ->ArgName("threads")
            ->Iterations(1)
            ->Unit(benchmark::kSecond)
            ->UseRealTime();
    }
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
