// Wall time of full budget sweeps (0.1 to 1.0, step 0.001: 901 budgets, DTR) of every public
// trace on 1 and 2 threads, with the holes found, the runs that took another run's result (same
// interval of budgets) and the process's peak memory; and the cost
// of a score expression: DTR's score as an expression against built-in DTR (0.1 to 1.0, step
// 0.001, one thread), the expression's sweep must stay within 3x of the built-in's.
#include "core/sim/baseline.h"
#include "core/sim/policy_spec.h"
#include "core/sweep/hole_finder.h"
#include "core/sweep/sweep_plan.h"
#include "core/sweep/sweep_runner.h"
#include "core/trace/trace_reader.h"

#include "public_traces.h"

#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <filesystem>

using namespace rematlens;

namespace {

const char *const kDtrExpression = "expr:(compute + estar) / (size * staleness)";

void sweepTrace(benchmark::State &state, const char *name, const char *step, const char *policy)
{
    const TraceReadResult read = readTraceFile(publicTracePath(name));
    if (!read.ok()) {
        state.SkipWithError("public trace not found (set REMATLENS_SHARED_DIR)");
        return;
    }
    const Baseline baseline = computeBaseline(*read.program);
    std::string error;
    const std::vector<GridPoint> grid = *DecimalGrid::make("0.1", "1.0", step, error);
    SweepSettings settings;
    settings.trace = name;
    PolicySpecError policyError;
    settings.policies = {*parsePolicySpec(policy, policyError)};
    const std::vector<RunRequest> requests = planSweep(settings, baseline, grid);
    const SweepRunner runner(read.program, static_cast<int>(state.range(0)));
    std::vector<BudgetOutcome> outcomes(requests.size());
    std::size_t shared = 0; // runs that took the result of another run of their interval
    for (auto _ : state) {
        shared = 0;
        runner.run(requests, nullptr, [&](std::size_t i, const RunResult &r) {
            outcomes[i] = {requests[i].ratio, requests[i].config.budget, r.outcome};
            shared += r.seconds == 0 ? 1 : 0;
        });
    }
    const HoleReport report = findHoles(outcomes);
    std::size_t passes = 0;
    for (const BudgetOutcome &o : outcomes)
        passes += o.outcome == Outcome::Pass ? 1 : 0;
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    state.counters["runs"] = static_cast<double>(requests.size());
    state.counters["shared"] = static_cast<double>(shared);
    state.counters["pass"] = static_cast<double>(passes);
    state.counters["holes"] = static_cast<double>(report.holes.size());
    state.counters["peak_MiB"] = static_cast<double>(usage.ru_maxrss) / 1024.0;
}

} // namespace

int main(int argc, char **argv)
{
    for (const char *name : kPublicTraces) {
        const std::string shortName = shortTraceName(name);
        benchmark::RegisterBenchmark(("sweep_dtr_0.1-1.0_step0.001/" + shortName).c_str(), sweepTrace, name, "0.001",
                                     "DTR")
            ->Arg(1)
            ->Arg(2)
            ->ArgName("threads")
            ->Iterations(1)
            ->Unit(benchmark::kSecond)
            ->UseRealTime();
    }
    for (const char *name : kPublicTraces)
        for (const auto &[label, policy] : {std::pair{"builtin_dtr", "DTR"}, std::pair{"expression_dtr", kDtrExpression}})
            benchmark::RegisterBenchmark(
                ("sweep_policy_0.1-1.0_step0.001/" + shortTraceName(name) + "/" + label).c_str(), sweepTrace, name,
                "0.001", policy)
                ->Arg(1)
                ->ArgName("threads")
                ->Iterations(1)
                ->Unit(benchmark::kSecond)
                ->UseRealTime();
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
