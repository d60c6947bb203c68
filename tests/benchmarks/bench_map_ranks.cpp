// How a map spreads over ranks or shards (Release builds only give meaningful numbers). The
// range is cut into 64 pieces per rank as map --shard and MPI maps cut it; each piece is walked
// alone, on one thread, as a rank walks it, and timed. Counters: the cost per interval, and the
// busy fraction per rank (its pieces' time over the slowest rank's) for three ways to hand the
// pieces out: contiguous blocks (a static split of bytes), interleaved (piece k to rank k mod N,
// as --shard does) and dynamic (each piece, in order, to the rank that is free first, as rank 0
// of an MPI map does). Busy fractions leave out the messages, which are one per piece.
#include "core/map/budget_walker.h"

#include "public_traces.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <numeric>
#include <string>

using namespace rematlens;

namespace {

constexpr std::size_t kPiecesPerRank = 64;

enum class Handout { Contiguous, Interleaved, Dynamic };

// Each rank's busy time when the pieces (their times, in order) are handed out so.
std::vector<double> rankTimes(const std::vector<double> &pieces, std::size_t ranks, Handout handout)
{
    std::vector<double> busy(ranks, 0.0);
    for (std::size_t k = 0; k < pieces.size(); ++k) {
        std::size_t rank = 0;
        if (handout == Handout::Contiguous)
            rank = k * ranks / pieces.size();
        else if (handout == Handout::Interleaved)
            rank = k % ranks;
        else
            rank = static_cast<std::size_t>(std::min_element(busy.begin(), busy.end()) - busy.begin());
        busy[rank] += pieces[k];
    }
    return busy;
}

void spreadMap(benchmark::State &state, const char *name, double from, double to, std::size_t ranks)
{
    const LoadedPublicTrace *loaded = loadPublicTrace(name);
    if (!loaded) {
        state.SkipWithError("public trace not found (set REMATLENS_SHARED_DIR)");
        return;
    }
    RunConfig config;
    config.rematLimit = rematLimitFor(loaded->baseline, 2.0);
    const ByteRange range{budgetForRatio(loaded->baseline, from), budgetForRatio(loaded->baseline, to) + 1};
    BudgetWalker walker(loaded->program, config, 1);
    walker.setChunksPerThread(1);
    std::vector<double> seconds;
    std::size_t intervals = 0;
    for (auto _ : state) {
        seconds.clear();
        intervals = 0;
        for (const ByteRange &piece : splitRange(range, kPiecesPerRank * ranks)) {
            const auto start = std::chrono::steady_clock::now();
            walker.walk({piece}, nullptr, [&](const RunResult &r) {
                if (std::max(r.interval.lo, range.from) >= piece.from) // the piece's own intervals
                    ++intervals;
            });
            seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        }
    }
    const double total = std::accumulate(seconds.begin(), seconds.end(), 0.0);
    state.counters["intervals"] = static_cast<double>(intervals);
    state.counters["ms_per_interval"] = intervals ? 1000.0 * total / static_cast<double>(intervals) : 0.0;
    const std::pair<const char *, Handout> handouts[] = {
        {"contiguous", Handout::Contiguous}, {"interleaved", Handout::Interleaved}, {"dynamic", Handout::Dynamic}};
    for (const auto &[label, handout] : handouts) {
        const std::vector<double> busy = rankTimes(seconds, ranks, handout);
        const double slowest = *std::max_element(busy.begin(), busy.end());
        for (std::size_t r = 0; r < ranks; ++r)
            state.counters[std::string(label) + "_busy_rank" + std::to_string(r)] = slowest > 0 ? busy[r] / slowest : 0.0;
    }
}

void registerAll()
{
    for (std::size_t ranks : {2, 4})
        benchmark::RegisterBenchmark(("unet_0_10_to_1_00/ranks:" + std::to_string(ranks)).c_str(), spreadMap,
                                     kPublicTraces[0], 0.10, 1.00, ranks)
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime()
            ->Iterations(1);
    benchmark::RegisterBenchmark("treelstm_0_10_to_0_12/ranks:2", spreadMap, kPublicTraces[6], 0.10, 0.12, std::size_t{2})
        ->Unit(benchmark::kSecond)
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
