// Where the time of a dense map stretch goes (Release builds only give meaningful numbers).
// For each stretch, the chain of replays that maps it (each at the previous interval's end) is
// replayed from step 0 on one thread, timed along the way, and reports:
//   - where in its replay the next interval's replay first differs: the flipping comparison's
//     step, as a share of the replay's time before that step began (and of its steps), and for
//     flips inside the step the replay stopped in, as a share of the run's remats: quantiles;
//   - what one interval costs from step 0, what copying the replay state costs, and what the
//     map's walker pays per interval, as `map` runs it (following earlier replays' paths: how
//     often a replay met the one before, `joins`) and replaying every interval from step 0.
// Costs are CPU time, which a shared machine disturbs far less than wall time; the shares are
// of a replay's wall time, which a load slows evenly.
#include "core/map/budget_walker.h"
#include "core/sim/replay.h"

#include "public_traces.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

using namespace rematlens;

namespace {

using Clock = std::chrono::steady_clock;

struct DenseStretch {
    const char *trace;
    double from;
    double to;
};

// InceptionV4 0.250-0.2503, inside its window; for the unrolled GAN and DenseNet-121 the 0.0003
// just below their 0.001 grid's first pass (0.238 and 0.140), where the grid's failures end.
constexpr DenseStretch kStretches[] = {
    {kPublicTraces[2], 0.2500, 0.2503},
    {kPublicTraces[5], 0.2377, 0.2380},
    {kPublicTraces[3], 0.1397, 0.1400},
};

// One replay from step 0, with the time before every step.
struct TimedReplay {
    RunResult result;
    std::size_t stoppedAt = 0;                     // steps run
    std::vector<std::pair<std::size_t, double>> times; // (step, seconds since start before it ran)
    double copySeconds = 0;                        // one copy of the state, half way
    double cpuSeconds = 0;                         // of the whole replay

    // Seconds spent before `step` began.
    double secondsBefore(std::size_t step) const
    {
        for (const auto &[s, t] : times)
            if (s >= step)
                return t;
        return result.seconds;
    }
};

TimedReplay timedReplay(const Program &program, RunConfig config, Bytes budget)
{
    config.budget = budget;
    Replay replay(program, config);
    TimedReplay timed;
    const Clock::time_point start = Clock::now();
    bool copied = false;
    replay.setCheckpoints(1, [&](const Replay &r) {
        timed.times.emplace_back(r.step(), std::chrono::duration<double>(Clock::now() - start).count());
        if (!copied && r.step() >= program.schedule.size() / 2) {
            const Clock::time_point before = Clock::now();
            const Replay copy(r);
            timed.copySeconds = std::chrono::duration<double>(Clock::now() - before).count();
            copied = true;
        }
    });
    const std::clock_t cpuStart = std::clock();
    timed.result = replay.run();
    timed.cpuSeconds = double(std::clock() - cpuStart) / CLOCKS_PER_SEC;
    timed.stoppedAt = replay.step();
    timed.times.emplace_back(timed.stoppedAt + 1, timed.result.seconds); // after the last step ran
    return timed;
}

double quantile(std::vector<double> values, double q)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    return values[static_cast<std::size_t>(q * double(values.size() - 1) + 0.5)];
}

const LoadedPublicTrace *loadStretch(benchmark::State &state, const DenseStretch &stretch)
{
    const LoadedPublicTrace *loaded = loadPublicTrace(stretch.trace);
    if (!loaded)
        state.SkipWithError("public trace not found (set REMATLENS_SHARED_DIR)");
    return loaded;
}

constexpr std::size_t kDefaultCopies = ~std::size_t(0); // the walker's own setting

RunConfig configFor(const LoadedPublicTrace &loaded, double overheadLimit)
{
    RunConfig config;
    config.rematLimit = rematLimitFor(loaded.baseline, overheadLimit);
    return config;
}

void whereTimeGoes(benchmark::State &state, DenseStretch stretch, double overheadLimit)
{
    const LoadedPublicTrace *loaded = loadStretch(state, stretch);
    if (!loaded)
        return;
    const RunConfig config = configFor(*loaded, overheadLimit);
    const Bytes from = budgetForRatio(loaded->baseline, stretch.from);
    const Bytes to = budgetForRatio(loaded->baseline, stretch.to);
    std::vector<double> timeShare, stepShare, replaySeconds, copySeconds;
    std::vector<double> rematShare; // of flips inside the replay's last step: remats before it
    // REMATLENS_DENSE_CSV=FILE appends every interval: lo, hi, outcome, flip step, steps run,
    // seconds, seconds before the flip's step, remats before the flip, remats, evictions before
    // the flip, evictions.
    const char *csvPath = std::getenv("REMATLENS_DENSE_CSV");
    FILE *csv = csvPath ? std::fopen(csvPath, "a") : nullptr;
    for (auto _ : state) {
        timeShare.clear();
        stepShare.clear();
        replaySeconds.clear();
        copySeconds.clear();
        rematShare.clear();
        for (Bytes budget = from; budget <= to;) {
            const TimedReplay timed = timedReplay(*loaded->program, config, budget);
            replaySeconds.push_back(timed.cpuSeconds);
            copySeconds.push_back(timed.copySeconds);
            if (!timed.result.flip || !timed.result.interval.hi)
                break;
            timeShare.push_back(timed.secondsBefore(timed.result.flip->step) / timed.result.seconds);
            if (timed.result.flip->step == timed.stoppedAt && timed.result.remats > 0) // inside the last step
                rematShare.push_back(double(timed.result.flip->rematsBefore) / double(timed.result.remats));
            if (csv)
                std::fprintf(csv, "%lld,%lld,%s,%zu,%zu,%.6f,%.6f,%lld,%lld,%lld,%lld\n", (long long)timed.result.interval.lo,
                             (long long)*timed.result.interval.hi, std::string(outcomeName(timed.result.outcome)).c_str(),
                             timed.result.flip->step, timed.stoppedAt, timed.result.seconds,
                             timed.secondsBefore(timed.result.flip->step), (long long)timed.result.flip->rematsBefore,
                             (long long)timed.result.remats, (long long)timed.result.flip->runEvictionsBefore,
                             (long long)timed.result.evictions);
            stepShare.push_back(double(timed.result.flip->step) / double(std::max<std::size_t>(1, timed.stoppedAt)));
            budget = *timed.result.interval.hi;
        }
    }
    if (csv)
        std::fclose(csv);
    double total = 0;
    for (double s : replaySeconds)
        total += s;
    const double intervals = double(replaySeconds.size());
    state.counters["intervals"] = intervals;
    state.counters["replay_ms"] = 1e3 * total / std::max(1.0, intervals);
    state.counters["copy_ms"] = 1e3 * quantile(copySeconds, 0.5);
    for (double q : {0.1, 0.5, 0.9})
        state.counters["flip_time_p" + std::to_string(int(q * 100))] = quantile(timeShare, q);
    state.counters["flip_step_p50"] = quantile(stepShare, 0.5);
    // Flips inside the step the replay stopped in (a cascade run to the compute limit): how many
    // there are, and how far into the run's remats they come.
    state.counters["flips_in_last_step"] = double(rematShare.size());
    for (double q : {0.1, 0.5, 0.9})
        state.counters["flip_remats_p" + std::to_string(int(q * 100))] = quantile(rematShare, q);
    double skippable = 0;
    for (std::size_t i = 0; i < timeShare.size(); ++i)
        skippable += timeShare[i] * replaySeconds[i + 1 < replaySeconds.size() ? i + 1 : i];
    // What a replay forked at the start of each flip's step would cost per interval: the rest
    // of the replay and one copy.
    state.counters["step_forked_ms"] = 1e3 * (total - skippable) / std::max(1.0, intervals) + 1e3 * quantile(copySeconds, 0.5);
}

// The same stretch as `map` walks it (one thread, one chunk: no split replays), following
// earlier replays' paths (copies: the walker's default) or replaying every interval from step 0
// (copies 0).
void walkerCost(benchmark::State &state, DenseStretch stretch, double overheadLimit, std::size_t copies)
{
    const LoadedPublicTrace *loaded = loadStretch(state, stretch);
    if (!loaded)
        return;
    const RunConfig config = configFor(*loaded, overheadLimit);
    const ByteRange range{budgetForRatio(loaded->baseline, stretch.from), budgetForRatio(loaded->baseline, stretch.to) + 1};
    BudgetWalker walker(loaded->program, config, 1);
    walker.setChunksPerThread(1);
    if (copies != kDefaultCopies)
        walker.setCheckpointsPerReplay(copies);
    std::size_t intervals = 0;
    MapWalkEnd end;
    double cpuSeconds = 0;
    for (auto _ : state) {
        intervals = 0;
        const std::clock_t before = std::clock();
        end = walker.walk({range}, nullptr, [&](const RunResult &) { ++intervals; });
        cpuSeconds = double(std::clock() - before) / CLOCKS_PER_SEC;
    }
    state.counters["intervals"] = double(intervals);
    state.counters["replays"] = double(end.replays);
    state.counters["joins"] = double(end.joins);
    state.counters["ms_per_interval"] = 1e3 * cpuSeconds / std::max<double>(1, double(intervals));
}

void registerAll()
{
    for (const DenseStretch &stretch : kStretches) {
        char range[32];
        std::snprintf(range, sizeof range, "_%.4f_to_%.4f", stretch.from, stretch.to);
        const std::string name = shortTraceName(stretch.trace) + range;
        benchmark::RegisterBenchmark(("where_time_goes/" + name).c_str(), whereTimeGoes, stretch, 2.0)
            ->Unit(benchmark::kSecond)
            ->MeasureProcessCPUTime()
            ->Iterations(1);
        benchmark::RegisterBenchmark(("walker/" + name).c_str(), walkerCost, stretch, 2.0, kDefaultCopies)
            ->Unit(benchmark::kSecond)
            ->MeasureProcessCPUTime()
            ->Iterations(1);
        benchmark::RegisterBenchmark(("walker_from_step_0/" + name).c_str(), walkerCost, stretch, 2.0, std::size_t{0})
            ->Unit(benchmark::kSecond)
            ->MeasureProcessCPUTime()
            ->Iterations(1);
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
