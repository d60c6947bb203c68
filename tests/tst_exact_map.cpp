// The exact map: every interval a walk reports replays identically at its ends and inside, and
// differently one byte above; walks tile their range whatever the chunking; budget-reading
// policies are refused; holes of U-Net to the byte (with the public traces).
#include "core/map/budget_walker.h"
#include "core/map/chunk_queue.h"
#include "core/map/first_trail.h"
#include "core/map/map_edge.h"
#include "core/map/map_summary.h"
#include "core/sim/baseline.h"
#include "core/sim/policy_spec.h"
#include "core/sim/replay.h"
#include "core/sweep/decimal_grid.h"
#include "core/sweep/shared_intervals.h"
#include "core/sweep/sweep_plan.h"
#include "core/sweep/sweep_runner.h"
#include "core/trace/trace_reader.h"

#include "loaded_program.h"
#include "record_differences.h"
#include "shared_data.h"

#include <QtTest>

#include <chrono>
#include <future>

using namespace rematlens;

namespace {

QString ownTrace(const char *name)
{
    return QStringLiteral(REMATLENS_SOURCE_DIR "/traces/") + QLatin1String(name) + QStringLiteral(".log");
}

RunConfig configFor(const LoadedProgram &trace, const char *policy, RuntimeKind runtime, double overheadLimit)
{
    RunConfig config;
    config.policy = *findPolicy(policy);
    config.runtime = runtime;
    config.rematLimit = rematLimitFor(trace.baseline, overheadLimit);
    return config;
}

// Checkpoints: copies kept per replay to continue the next from, used however short the
// replays (0: every replay from step 0).
std::vector<RunResult> walkAll(const LoadedProgram &trace, const RunConfig &config, ByteRange range, int threads,
                               std::size_t chunksPerThread, MapWalkEnd *end = nullptr, std::size_t checkpoints = 16)
{
    BudgetWalker walker(trace.program, config, threads);
    walker.setChunksPerThread(chunksPerThread);
    walker.setCheckpointsPerReplay(checkpoints, 0.0);
    std::vector<RunResult> found;
    const MapWalkEnd walked = walker.walk({range}, nullptr, [&](const RunResult &r) { found.push_back(r); });
    if (end)
        *end = walked;
    return sortedIntervals(std::move(found));
}

RunResult replayAt(const LoadedProgram &trace, RunConfig config, Bytes budget, RunRecording *recording = nullptr)
{
    config.budget = budget;
    config.recording = recording;
    return Replay(*trace.program, config).run();
}

// Every field but the wall time, and the bytes short, which are the budget's own.
QString sameRecord(const RunResult &a, const RunResult &b)
{
    RunResult budgetFree = a;
    if (budgetFree.failure && b.failure)
        budgetFree.failure->bytesShort = b.failure->bytesShort;
    return recordDifferences(budgetFree, b);
}

bool sameEvents(const RunRecording &a, const RunRecording &b)
{
    if (a.events.size() != b.events.size())
        return false;
    for (std::size_t i = 0; i < a.events.size(); ++i) {
        const ReplayEvent &x = a.events[i];
        const ReplayEvent &y = b.events[i];
        if (x.kind != y.kind || x.clock != y.clock || x.tensor != y.tensor || x.memory != y.memory || x.step != y.step)
            return false;
    }
    return true;
}

QString tilingProblem(const std::vector<RunResult> &sorted, ByteRange range)
{
    if (sorted.empty())
        return QStringLiteral("no intervals");
    if (!sorted.front().interval.contains(range.from))
        return QStringLiteral("the first interval misses the range's start");
    for (std::size_t i = 1; i < sorted.size(); ++i)
        if (sorted[i - 1].interval.hi != sorted[i].interval.lo)
            return QStringLiteral("intervals %1 and %2 do not meet").arg(i - 1).arg(i);
    if (!sorted.back().interval.contains(range.end - 1))
        return QStringLiteral("the last interval misses the range's end");
    return {};
}

} // namespace

class ExactMapTest : public QObject {
    Q_OBJECT

private slots:
    void everyIntervalReplaysIdentically_data();
    void everyIntervalReplaysIdentically();
    void chunkingDoesNotChangeTheMap();
    void resumedWalkCompletesTheMap();
    void cancelledWalkLeavesItUnmapped();
    void budgetReadingPoliciesAreRefused();
    void uncoveredRangesAndSplits();
    void idleThreadsSplitTheBusiestChunk();
    void chunkAboveAWideReplayWaitsForIt();
    void firstTrailIsAwaitedByTheOtherThreads();
    void wideIntervalsKeepTheirRecordsOnTwoThreads();
    void summaryFindsHolesAndVerdict();
    void edgesAreExplained();
    void unetHolesToTheByte();
    void denseStretchesFollowEarlierPaths_data();
    void denseStretchesFollowEarlierPaths();
    void sweepSharesIntervalsExactly_data();
    void sweepSharesIntervalsExactly();
    void allocatorRunsShareNothing();
};

void ExactMapTest::everyIntervalReplaysIdentically_data()
{
    QTest::addColumn<QString>("trace");
    QTest::addColumn<QString>("policy");
    QTest::addColumn<int>("runtime");
    QTest::addColumn<double>("overheadLimit");
    QTest::addColumn<double>("from");
    QTest::addColumn<double>("to");
    const auto eager = static_cast<int>(RuntimeKind::Eager);
    for (const char *name : {"chain", "demo", "resnet", "unet"})
        QTest::newRow(name) << ownTrace(name) << QStringLiteral("DTR") << eager << 2.0 << 0.3 << 0.7;
    // The LSTM has an interval every few bytes: a narrower range keeps the test short.
    QTest::newRow("lstm") << ownTrace("lstm") << QStringLiteral("DTR") << eager << 2.0 << 0.5 << 0.6;
    QTest::newRow("unet DTREqClass") << ownTrace("unet") << QStringLiteral("DTREqClass") << eager << 2.0 << 0.3 << 0.7;
    // MSPS resolves its regions through backward closures, in replays continued from copies.
    QTest::newRow("unet MSPS") << ownTrace("unet") << QStringLiteral("MSPS") << eager << 2.0 << 0.3 << 0.7;
    QTest::newRow("resnet LRU limit 1.2") << ownTrace("resnet") << QStringLiteral("LRU") << eager << 1.2 << 0.3 << 0.7;
    QTest::newRow("lstm DTR lazy") << ownTrace("lstm") << QStringLiteral("DTR") << static_cast<int>(RuntimeKind::Lazy)
                                   << 2.0 << 0.5 << 0.6;
    QTest::newRow("demo DTRUnopt banishing") << ownTrace("demo") << QStringLiteral("DTRUnopt")
                                             << static_cast<int>(RuntimeKind::Banishing) << 2.0 << 0.3 << 0.7;
}

// At lo, hi - 1 and inside every interval a replay from step 0 is the same as the walk's (whose
// replays continue from copies of the one before); at hi it decides differently.
void ExactMapTest::everyIntervalReplaysIdentically()
{
    QFETCH(QString, trace);
    QFETCH(QString, policy);
    QFETCH(int, runtime);
    QFETCH(double, overheadLimit);
    QFETCH(double, from);
    QFETCH(double, to);
    const LoadedProgram loaded = loadProgram(trace);
    QVERIFY(loaded.program);
    const RunConfig config = configFor(loaded, policy.toLatin1().constData(), static_cast<RuntimeKind>(runtime),
                                       overheadLimit);
    const ByteRange range{budgetForRatio(loaded.baseline, from), budgetForRatio(loaded.baseline, to) + 1};
    const std::vector<RunResult> map = walkAll(loaded, config, range, 2, 4);
    QCOMPARE(tilingProblem(map, range), QString());
    QVERIFY(map.size() > 3);
    for (const RunResult &mapped : map) {
        const BudgetInterval &interval = mapped.interval;
        const Bytes last = interval.hi ? *interval.hi - 1 : interval.lo + 1'000'000;
        for (Bytes budget : {interval.lo, last, interval.lo + (last - interval.lo) / 3})
            QVERIFY2(sameRecord(replayAt(loaded, config, budget), mapped).isEmpty(),
                     qPrintable(QStringLiteral("[%1, %2) at %3: %4")
                                    .arg(interval.lo)
                                    .arg(interval.hi.value_or(-1))
                                    .arg(budget)
                                    .arg(sameRecord(replayAt(loaded, config, budget), mapped))));
        if (!interval.hi)
            continue;
        RunRecording below;
        RunRecording above;
        const RunResult lower = replayAt(loaded, config, *interval.hi - 1, &below);
        const RunResult upper = replayAt(loaded, config, *interval.hi, &above);
        QCOMPARE(upper.interval.lo, *interval.hi);
        QVERIFY2(!sameEvents(below, above) || !sameRecord(lower, upper).isEmpty(),
                 qPrintable(QStringLiteral("nothing changes at hi = %1").arg(*interval.hi)));
        QVERIFY(mapped.flip);
        QCOMPARE(mapped.flip->memoryInUse + mapped.flip->needed, *interval.hi);
    }
}

// Chunked and continued from copies, or one chunk replayed from step 0: the same map.
void ExactMapTest::chunkingDoesNotChangeTheMap()
{
    const LoadedProgram loaded = loadProgram(ownTrace("resnet"));
    QVERIFY(loaded.program);
    const RunConfig config = configFor(loaded, "DTR", RuntimeKind::Eager, 2.0);
    const ByteRange range{budgetForRatio(loaded.baseline, 0.3), budgetForRatio(loaded.baseline, 0.6) + 1};
    const std::vector<RunResult> serial = walkAll(loaded, config, range, 1, 1, nullptr, 0);
    for (std::size_t chunks : {3u, 64u}) {
        MapWalkEnd end;
        const std::vector<RunResult> parallel = walkAll(loaded, config, range, 2, chunks, &end);
        QCOMPARE(parallel.size(), serial.size());
        for (std::size_t i = 0; i < serial.size(); ++i)
            QCOMPARE(sameRecord(parallel[i], serial[i]), QString());
        QVERIFY(end.unmapped.empty());
        QVERIFY(end.replays >= serial.size());
    }
}

void ExactMapTest::resumedWalkCompletesTheMap()
{
    const LoadedProgram loaded = loadProgram(ownTrace("unet"));
    QVERIFY(loaded.program);
    const RunConfig config = configFor(loaded, "DTR", RuntimeKind::Eager, 2.0);
    const ByteRange range{budgetForRatio(loaded.baseline, 0.2), budgetForRatio(loaded.baseline, 0.8) + 1};
    const std::vector<RunResult> whole = walkAll(loaded, config, range, 2, 8);
    QVERIFY(whole.size() > 4);
    // Keep every other interval, as an interrupted walk might have; walk what is missing.
    std::vector<RunResult> kept;
    std::vector<BudgetInterval> known;
    for (std::size_t i = 0; i < whole.size(); i += 2) {
        kept.push_back(whole[i]);
        known.push_back(whole[i].interval);
    }
    BudgetWalker walker(loaded.program, config, 2);
    walker.walk(uncoveredRanges(range, known), nullptr, [&](const RunResult &r) { kept.push_back(r); });
    const std::vector<RunResult> resumed = sortedIntervals(kept);
    QCOMPARE(resumed.size(), whole.size());
    for (std::size_t i = 0; i < whole.size(); ++i)
        QCOMPARE(sameRecord(resumed[i], whole[i]), QString());
}

void ExactMapTest::cancelledWalkLeavesItUnmapped()
{
    const LoadedProgram loaded = loadProgram(ownTrace("demo"));
    QVERIFY(loaded.program);
    const ByteRange range{1000, 5000};
    const std::atomic<bool> cancel = true;
    BudgetWalker walker(loaded.program, configFor(loaded, "DTR", RuntimeKind::Eager, 2.0), 2);
    std::size_t reported = 0;
    const MapWalkEnd end = walker.walk({range}, &cancel, [&](const RunResult &) { ++reported; });
    QCOMPARE(reported, std::size_t{0});
    QVERIFY(end.cancelled);
    QCOMPARE(end.unmapped.size(), std::size_t{1});
    QCOMPARE(end.unmapped.front(), range);
    const MapSummary summary = summarizeMap(range, {});
    QCOMPARE(summary.verdict, MonotoneVerdict::Undetermined);
    QCOMPARE(summary.unmapped.size(), std::size_t{1});
}

void ExactMapTest::budgetReadingPoliciesAreRefused()
{
    RunConfig config;
    config.policy = *findPolicy("ShortfallFirst");
    QVERIFY(mapProblem(config).find("ShortfallFirst") != std::string::npos);
    PolicySpecError error;
    config.policy = *parsePolicySpec("expr:compute / (size * shortfall)", error);
    QVERIFY(mapProblem(config).find("shortfall") != std::string::npos);
    config.policy = *parsePolicySpec("expr:compute / (size * staleness)", error);
    QCOMPARE(mapProblem(config), std::string());
    for (const Policy &policy : allPolicies()) {
        config.policy = policy;
        QCOMPARE(mapProblem(config).empty(), policy.cost != CostTerm::ShortfallFirst);
    }
}

void ExactMapTest::uncoveredRangesAndSplits()
{
    const ByteRange whole{100, 200};
    QCOMPARE(uncoveredRanges(whole, {}), std::vector<ByteRange>{whole});
    const std::vector<ByteRange> gaps = uncoveredRanges(whole, {{90, 120}, {150, 160}, {160, 170}, {190, std::nullopt}});
    QCOMPARE(gaps, (std::vector<ByteRange>{{120, 150}, {170, 190}}));
    QVERIFY(uncoveredRanges(whole, {{0, std::nullopt}}).empty());
    const std::vector<ByteRange> chunks = splitRange({10, 17}, 3);
    QCOMPARE(chunks, (std::vector<ByteRange>{{10, 13}, {13, 15}, {15, 17}}));
    QCOMPARE(splitRange({10, 12}, 5).size(), std::size_t{2});
}

// Called from one thread, so that nothing waits: every chunk taken is split or stopped before
// the next request.
void ExactMapTest::idleThreadsSplitTheBusiestChunk()
{
    ChunkQueue queue({{ByteRange{0, 100}, 0}, {ByteRange{100, 400}, 0}});
    const std::optional<ChunkQueue::Claim> low = queue.next();
    const std::optional<ChunkQueue::Claim> high = queue.next();
    QVERIFY(low && high);
    QCOMPARE(low->bytes, (ByteRange{0, 100}));
    QCOMPARE(high->bytes, (ByteRange{100, 400}));
    // The low chunk needs a replay per 10 bytes (6 more expected), the high one a replay per
    // 100 bytes (2 more expected, too few to split): the low one gives up half its rest.
    for (Bytes hi : {10, 20, 30, 40})
        QCOMPARE(queue.advance(low->slot, hi), hi);
    QCOMPARE(queue.advance(high->slot, 200), Bytes{200});
    const std::optional<ChunkQueue::Claim> half = queue.next();
    QVERIFY(half);
    QCOMPARE(half->bytes, (ByteRange{70, 100})); // above the replay under way at 40
    QCOMPARE(half->rangeFrom, Bytes{0});
    QCOMPARE(queue.end(low->slot), Bytes{70});
    QCOMPARE(queue.advance(low->slot, 500), Bytes{70}); // an interval past the split ends there
    QCOMPARE(queue.stop(low->slot), Bytes{70});
    QCOMPARE(queue.advance(half->slot, std::nullopt), Bytes{100});
    QCOMPARE(queue.stop(half->slot), Bytes{100});
    QCOMPARE(queue.stop(high->slot), Bytes{400});
    QVERIFY(!queue.next()); // nothing walks, nothing is left
}

// Intervals so far 60 bytes per replay: the replay under way at 60 is expected to reach the
// chunk above, which no thread starts until it ends; once intervals narrow, the next chunk up is
// started at once.
void ExactMapTest::chunkAboveAWideReplayWaitsForIt()
{
    using namespace std::chrono_literals;
    ChunkQueue queue({{ByteRange{0, 100}, 0}, {ByteRange{100, 200}, 0}, {ByteRange{200, 300}, 0}});
    const std::optional<ChunkQueue::Claim> low = queue.next();
    QVERIFY(low);
    QCOMPARE(queue.advance(low->slot, 60), Bytes{60});
    std::future<std::optional<ChunkQueue::Claim>> above = std::async(std::launch::async, [&] { return queue.next(); });
    QCOMPARE(above.wait_for(100ms), std::future_status::timeout);
    QCOMPARE(queue.advance(low->slot, 150), Bytes{100}); // the interval reaches into the chunk above
    const std::optional<ChunkQueue::Claim> middle = above.get();
    QVERIFY(middle);
    QCOMPARE(middle->bytes, (ByteRange{150, 200})); // not replayed again from 100
    QCOMPARE(queue.stop(low->slot), Bytes{100});
    for (Bytes hi : {152, 154, 156, 158})
        QCOMPARE(queue.advance(middle->slot, hi), hi);
    const std::optional<ChunkQueue::Claim> top = queue.next(); // 18 bytes per replay now: 158 falls short of 200
    QVERIFY(top);
    QCOMPARE(top->bytes, (ByteRange{200, 300}));
    QCOMPARE(queue.stop(middle->slot), Bytes{200});
    QCOMPARE(queue.stop(top->slot), Bytes{300});
    QVERIFY(!queue.next());
}

void ExactMapTest::firstTrailIsAwaitedByTheOtherThreads()
{
    using namespace std::chrono_literals;
    FirstTrail first;
    QVERIFY(first.claim());
    QVERIFY(!first.claim());
    std::future<std::shared_ptr<const ReplayTrail>> waiting = std::async(std::launch::async, [&] { return first.await(); });
    QCOMPARE(waiting.wait_for(100ms), std::future_status::timeout);
    auto trail = std::make_shared<ReplayTrail>();
    trail->finish({}, RunResult{});
    first.publish(trail);
    first.publish(nullptr); // only the first trail counts
    QCOMPARE(waiting.get().get(), trail.get());
    QCOMPARE(first.await().get(), trail.get()); // later threads do not wait
}

// Under the caching model U-Net's 0.50-0.52 holds three intervals, each wider than the 32 chunks
// it is cut into. On two threads the second one's first replay follows the first replay's trail,
// and a chunk waits for the replay below it that is expected to cover it; the records are those
// of one thread's walk from step 0. (How many replays that saves depends on the threads' timing,
// so it is measured in bench_map, not asserted here.)
void ExactMapTest::wideIntervalsKeepTheirRecordsOnTwoThreads()
{
    const LoadedProgram loaded = loadProgram(ownTrace("unet"));
    QVERIFY(loaded.program);
    RunConfig config = configFor(loaded, "DTR", RuntimeKind::Eager, 2.0);
    config.allocator.kind = AllocatorKind::Caching;
    const ByteRange range{budgetForRatio(loaded.baseline, 0.50), budgetForRatio(loaded.baseline, 0.52) + 1};
    const std::vector<RunResult> serial = walkAll(loaded, config, range, 1, 1, nullptr, 0);
    QCOMPARE(tilingProblem(serial, range), QString());
    QCOMPARE(serial.size(), std::size_t{3});
    MapWalkEnd end;
    const std::vector<RunResult> parallel = walkAll(loaded, config, range, 2, 16, &end, 16);
    QVERIFY(end.unmapped.empty());
    QCOMPARE(parallel.size(), serial.size());
    for (std::size_t i = 0; i < serial.size(); ++i)
        QCOMPARE(sameRecord(parallel[i], serial[i]), QString());
}

void ExactMapTest::summaryFindsHolesAndVerdict()
{
    const auto interval = [](Bytes lo, std::optional<Bytes> hi, Outcome outcome) {
        RunResult r;
        r.interval = {lo, hi};
        r.outcome = outcome;
        return r;
    };
    // oom [0,100), pass [100,150), oom [150,151), thrash [151,160), pass [160,200), pass [200,inf)
    const std::vector<RunResult> sorted = sortedIntervals(
        {interval(160, 200, Outcome::Pass), interval(0, 100, Outcome::OutOfMemory), interval(100, 150, Outcome::Pass),
         interval(150, 151, Outcome::OutOfMemory), interval(151, 160, Outcome::Thrash),
         interval(200, std::nullopt, Outcome::Pass)});
    const MapSummary s = summarizeMap({50, 300}, sorted);
    QCOMPARE(s.intervals, std::size_t{6});
    QCOMPARE(s.stretches.size(), std::size_t{5}); // the two passes above 160 are one stretch
    QCOMPARE(s.stretches.back().first, Bytes{160});
    QCOMPARE(s.stretches.back().last, Bytes{299});
    QCOMPARE(s.firstPass, std::optional<Bytes>{100});
    QCOMPARE(s.stableFrom, std::optional<Bytes>{160});
    QCOMPARE(s.holes.size(), std::size_t{1});
    QCOMPARE(s.holes[0].firstFail, Bytes{150});
    QCOMPARE(s.holes[0].lastFail, Bytes{159});
    QCOMPARE(s.verdict, MonotoneVerdict::NotMonotone);

    const MapSummary below = summarizeMap({50, 150}, sorted);
    QCOMPARE(below.verdict, MonotoneVerdict::Monotone);
    QVERIFY(below.holes.empty());
    // A gap above the first pass leaves the verdict open.
    const MapSummary gapped = summarizeMap({50, 300}, sortedIntervals({sorted[0], sorted[1], sorted[4], sorted[5]}));
    QCOMPARE(gapped.unmapped, (std::vector<ByteRange>{{150, 160}}));
    QCOMPARE(gapped.verdict, MonotoneVerdict::Undetermined);
}

void ExactMapTest::edgesAreExplained()
{
    const LoadedProgram loaded = loadProgram(ownTrace("unet"));
    QVERIFY(loaded.program);
    const RunConfig config = configFor(loaded, "DTR", RuntimeKind::Eager, 2.0);
    const ByteRange range{budgetForRatio(loaded.baseline, 0.05), budgetForRatio(loaded.baseline, 1.0) + 1};
    const std::vector<RunResult> map = walkAll(loaded, config, range, 2, 4);
    const MapSummary summary = summarizeMap(range, map);
    const std::vector<MapEdge> edges = explainEdges(*loaded.program, config, summary);
    std::size_t boundaries = 0;
    for (std::size_t i = 0; i + 1 < summary.stretches.size(); ++i)
        boundaries += (summary.stretches[i].outcome == Outcome::Pass) != (summary.stretches[i + 1].outcome == Outcome::Pass);
    QCOMPARE(edges.size(), boundaries);
    QVERIFY(!edges.empty());
    for (const MapEdge &edge : edges) {
        QCOMPARE(edge.above, edge.below + 1);
        QCOMPARE(edge.flip.memoryInUse + edge.flip.needed, edge.above);
        QVERIFY(edge.belowRun.outcome != edge.aboveRun.outcome);
        QCOMPARE(*edge.belowRun.interval.hi, edge.above);
        QCOMPARE(edge.aboveRun.interval.lo, edge.above);
        QVERIFY(edge.flip.step < loaded.program->schedule.size());
    }
}

// The three holes of U-Net under DTR between 0.40 and 0.45, to the byte; each bound is also
// checked by replaying on both sides of it.
void ExactMapTest::unetHolesToTheByte()
{
    const QString shared = sharedDirectory();
    if (shared.isEmpty())
        QSKIP("the public traces (../shared) are not here");
    const LoadedProgram loaded = loadProgram(publicTracePath(shared, QStringLiteral("unet-6-8000000000.0-2020-10-1-10-57-18-default.log")));
    QVERIFY(loaded.program);
    const RunConfig config = configFor(loaded, "DTR", RuntimeKind::Eager, 2.0);
    const ByteRange range{budgetForRatio(loaded.baseline, 0.40), budgetForRatio(loaded.baseline, 0.45) + 1};
    const std::vector<RunResult> map = walkAll(loaded, config, range, 2, 8);
    QCOMPARE(tilingProblem(map, range), QString());
    const MapSummary summary = summarizeMap(range, map);
    QCOMPARE(summary.intervals, std::size_t{243});
    QCOMPARE(summary.holes.size(), std::size_t{3});
    // Nothing fails above the first pass outside the three holes.
    for (const MapStretch &failing : summary.failuresAboveFirstPass)
        QVERIFY(std::any_of(summary.holes.begin(), summary.holes.end(), [&](const MapHole &h) {
            return failing.first >= h.firstFail && failing.last <= h.lastFail;
        }));
    const std::vector<std::pair<Bytes, Bytes>> expected = {
        {3'525'043'904, 3'535'266'239}, {3'553'475'732, 3'577'755'251}, {3'634'308'800, 3'664'552'639}};
    for (std::size_t h = 0; h < 3; ++h) {
        const MapHole &hole = summary.holes[h];
        QCOMPARE(hole.firstFail, expected[h].first);
        QCOMPARE(hole.lastFail, expected[h].second);
        QCOMPARE(replayAt(loaded, config, hole.firstFail - 1).outcome, Outcome::Pass);
        QVERIFY(isFailure(replayAt(loaded, config, hole.firstFail).outcome));
        QVERIFY(isFailure(replayAt(loaded, config, hole.lastFail).outcome));
        QCOMPARE(replayAt(loaded, config, hole.lastFail + 1).outcome, Outcome::Pass);
    }
    QCOMPARE(summary.verdict, MonotoneVerdict::NotMonotone);
}

void ExactMapTest::denseStretchesFollowEarlierPaths_data()
{
    QTest::addColumn<QString>("trace"); // a public trace's file name, or an own trace's path
    QTest::addColumn<QString>("policy");
    QTest::addColumn<double>("from");
    QTest::addColumn<double>("to");
    // Failing replays that part inside the last step's recomputation cascade and meet again
    // (InceptionV4, DenseNet-121), and replays that part early (the unrolled GAN).
    QTest::newRow("inceptionv4") << QStringLiteral("inceptionv4-64-10000000000.0-2020-10-1-10-55-0-default.log")
                                 << QStringLiteral("DTR") << 0.25026 << 0.2503;
    QTest::newRow("densenet121") << QStringLiteral("tv_densenet121-84-10000000000.0-2020-10-1-13-41-18-default.log")
                                 << QStringLiteral("DTR") << 0.13981 << 0.13983;
    QTest::newRow("unroll_gan") << QStringLiteral("unroll_gan-512-10000000000.0-2020-10-1-18-43-42-default.log")
                                << QStringLiteral("DTR") << 0.23771 << 0.23777;
    // Equivalence classes: replays that evicted and recomputed differently meet with forests
    // grown differently (other nodes, other paths) that class their evicted storages alike.
    QTest::newRow("transformer DTREqClass")
        << QStringLiteral("transformer-10-8000000000.0-2020-10-1-10-56-5-default.log") << QStringLiteral("DTREqClass")
        << 0.2 << 0.201;
    QTest::newRow("own lstm DTREqClass") << ownTrace("lstm") << QStringLiteral("DTREqClass") << 0.4 << 0.6;
}

// Where a dense stretch's replays follow their predecessors' paths (continued from copies,
// joined where they meet again in the same state), every record and flip is the one of a walk
// that replays every interval from step 0; on one thread and on two.
void ExactMapTest::denseStretchesFollowEarlierPaths()
{
    QFETCH(QString, trace);
    QFETCH(QString, policy);
    QFETCH(double, from);
    QFETCH(double, to);
    const QString path = QFileInfo(trace).isAbsolute() ? trace : findPublicTrace(trace);
    if (path.isEmpty())
        QSKIP("the public traces (../shared) are not here");
    const LoadedProgram loaded = loadProgram(path);
    QVERIFY(loaded.program);
    const RunConfig config = configFor(loaded, policy.toLatin1().constData(), RuntimeKind::Eager, 2.0);
    const ByteRange range{budgetForRatio(loaded.baseline, from), budgetForRatio(loaded.baseline, to) + 1};
    const std::vector<RunResult> fromStart = walkAll(loaded, config, range, 1, 1, nullptr, 0);
    QCOMPARE(tilingProblem(fromStart, range), QString());
    QVERIFY(fromStart.size() > 10);
    for (const auto &[threads, chunks] : {std::pair{1, 1}, std::pair{2, 3}}) {
        MapWalkEnd end;
        const std::vector<RunResult> followed = walkAll(loaded, config, range, threads, chunks, &end, 128);
        QCOMPARE(followed.size(), fromStart.size());
        for (std::size_t i = 0; i < followed.size(); ++i) {
            QCOMPARE(sameRecord(followed[i], fromStart[i]), QString());
            QVERIFY(followed[i].flip == fromStart[i].flip);
            if (followed[i].failure)
                QCOMPARE(followed[i].failure->bytesShort, fromStart[i].failure->bytesShort);
        }
        QVERIFY2(end.joins * 2 > followed.size(), qPrintable(QStringLiteral("%1 joins").arg(end.joins)));
    }
}

void ExactMapTest::sweepSharesIntervalsExactly_data()
{
    QTest::addColumn<QString>("trace");
    QTest::addColumn<QString>("policy");
    QTest::addColumn<QString>("step");
    for (const char *name : {"chain", "demo", "resnet", "unet", "lstm"})
        QTest::newRow(name) << ownTrace(name) << QStringLiteral("DTR") << QStringLiteral("0.001");
    QTest::newRow("unet LRU") << ownTrace("unet") << QStringLiteral("LRU") << QStringLiteral("0.001");
    QTest::newRow("resnet ShortfallFirst") << ownTrace("resnet") << QStringLiteral("ShortfallFirst")
                                           << QStringLiteral("0.01");
}

// A sweep takes a finished run's result for every budget in its interval instead of replaying:
// each record is the same as a replay of its own budget from step 0 (the bytes short too), and
// the sharing happens (or, for a policy that reads the budget, never does).
void ExactMapTest::sweepSharesIntervalsExactly()
{
    QFETCH(QString, trace);
    QFETCH(QString, policy);
    QFETCH(QString, step);
    const LoadedProgram loaded = loadProgram(trace);
    QVERIFY(loaded.program);
    std::string error;
    const std::vector<GridPoint> grid = *DecimalGrid::make("0.1", "1.0", step.toStdString(), error);
    SweepSettings settings;
    PolicySpecError policyError;
    settings.policies = {*parsePolicySpec(policy.toStdString(), policyError)};
    const std::vector<RunRequest> requests = planSweep(settings, loaded.baseline, grid);
    const std::vector<RunResult> swept = SweepRunner(loaded.program, 2).runAll(requests, nullptr, {});
    const bool readsBudget = settings.policies.front().readsBudget();
    SharedIntervals shared(requests);
    std::size_t taken = 0;
    for (std::size_t i = 0; i < requests.size(); ++i) {
        const RunResult replayed = Replay(*loaded.program, requests[i].config).run();
        QVERIFY2(sameRecord(swept[i], replayed).isEmpty(),
                 qPrintable(QStringLiteral("ratio %1: %2").arg(requests[i].ratio).arg(sameRecord(swept[i], replayed))));
        QCOMPARE(swept[i].failure.has_value() ? swept[i].failure->bytesShort : 0,
                 replayed.failure.has_value() ? replayed.failure->bytesShort : 0);
        if (shared.find(i, requests[i].config.budget))
            ++taken;
        else
            shared.add(i, replayed);
    }
    if (readsBudget)
        QCOMPARE(taken, std::size_t{0});
    else
        QVERIFY2(taken > 0, "no budget of the grid shared an interval");
}

// Under an allocator model a run stands for its own budget: a caching run never takes the result
// of a byte-sum run whose interval holds its budget, nor of another caching run.
void ExactMapTest::allocatorRunsShareNothing()
{
    const LoadedProgram loaded = loadProgram(ownTrace("unet"));
    QVERIFY(loaded.program);
    std::string error;
    const std::vector<GridPoint> grid = *DecimalGrid::make("0.5", "0.6", "0.001", error);
    SweepSettings settings;
    PolicySpecError policyError;
    settings.policies = {*parsePolicySpec("DTR", policyError)};
    std::vector<RunRequest> requests = planSweep(settings, loaded.baseline, grid);
    const std::size_t sumCount = requests.size();
    settings.allocator.kind = AllocatorKind::Caching;
    for (const RunRequest &request : planSweep(settings, loaded.baseline, grid))
        requests.push_back(request);
    SharedIntervals shared(requests);
    std::size_t sumTaken = 0;
    for (std::size_t i = 0; i < requests.size(); ++i) {
        const std::optional<RunResult> taken = shared.find(i, requests[i].config.budget);
        if (i >= sumCount)
            QVERIFY2(!taken, qPrintable(QStringLiteral("caching request %1 took a shared result").arg(i)));
        else if (taken)
            ++sumTaken;
        if (!taken)
            shared.add(i, Replay(*loaded.program, requests[i].config).run());
    }
    QVERIFY2(sumTaken > 0, "the byte-sum half shared nothing, so the check above proves nothing");
}

QTEST_GUILESS_MAIN(ExactMapTest)
#include "tst_exact_map.moc"
