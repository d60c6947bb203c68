// The exact map under the allocator models: at budgets drawn at random inside mapped intervals
// (uniformly over the range, and interval by interval so the dense stretches are drawn too), a
// replay from scratch gives its interval's record in every field; the worked examples'
// fragmentation failures appear to the byte, of the fragmentation kind.
#include "allocator_traces.h"
#include "loaded_program.h"
#include "record_differences.h"
#include "shared_data.h"

#include "core/map/budget_walker.h"
#include "core/map/map_summary.h"
#include "core/sim/baseline.h"
#include "core/sim/replay.h"
#include "core/sweep/sweep_plan.h"
#include "core/trace/trace_reader.h"

#include <QtTest>

#include <random>

using namespace rematlens;
using namespace allocator_traces;

namespace {

AllocatorConfig modelNamed(const QString &name)
{
    AllocatorConfig config;
    config.kind = name.startsWith(QStringLiteral("best-fit")) ? AllocatorKind::BestFit : AllocatorKind::Caching;
    if (name.contains(QStringLiteral("expandable")))
        config.caching.expandableSegments = true;
    if (name.contains(QStringLiteral("max-split")))
        config.caching.maxSplitSize = Bytes{20} << 20;
    if (name.contains(QStringLiteral("after-op"))) {
        config.eviction = EvictionCoupling::AfterOp;
        config.capacity = Bytes{6} << 30;
    }
    return config;
}

RunConfig configFor(const LoadedProgram &trace, const QString &model)
{
    RunConfig config;
    config.policy = *findPolicy("DTR");
    config.rematLimit = rematLimitFor(trace.baseline, 2.0);
    config.allocator = modelNamed(model);
    return config;
}

std::vector<RunResult> walk(const LoadedProgram &trace, const RunConfig &config, ByteRange range)
{
    BudgetWalker walker(trace.program, config, 2);
    walker.setChunksPerThread(4);
    walker.setCheckpointsPerReplay(16, 0.0);
    std::vector<RunResult> found;
    walker.walk({range}, nullptr, [&](const RunResult &r) { found.push_back(r); });
    return sortedIntervals(std::move(found));
}

// Every field of the record, the failure's budget-dependent figures restated at the budget.
QString differences(const RunResult &replayed, RunResult mapped, Bytes budget)
{
    if (mapped.failure)
        mapped.failure->restateAt(budget);
    return recordDifferences(replayed, mapped);
}

// Half the budgets uniform over the range, half in intervals drawn uniformly (dense stretches
// are many intervals in few bytes, so these land there).
std::vector<Bytes> drawBudgets(const std::vector<RunResult> &map, ByteRange range, std::size_t count)
{
    std::mt19937_64 random(20261202);
    std::vector<Bytes> budgets;
    std::uniform_int_distribution<Bytes> anywhere(range.from, range.end - 1);
    std::uniform_int_distribution<std::size_t> anyInterval(0, map.size() - 1);
    for (std::size_t i = 0; i < count; ++i) {
        if (i % 2 == 0) {
            budgets.push_back(anywhere(random));
            continue;
        }
        const BudgetInterval &interval = map[anyInterval(random)].interval;
        const Bytes lo = std::max(interval.lo, range.from);
        const Bytes hi = std::min(interval.hi.value_or(range.end), range.end);
        budgets.push_back(std::uniform_int_distribution<Bytes>(lo, hi - 1)(random));
    }
    return budgets;
}

// 60 in the suite; REMATLENS_EXACTNESS_BUDGETS asks for more (1,000 for a release check).
std::size_t budgetsPerPublicTrace()
{
    bool ok = false;
    const int asked = qEnvironmentVariableIntValue("REMATLENS_EXACTNESS_BUDGETS", &ok);
    return ok && asked > 0 ? static_cast<std::size_t>(asked) : 60;
}

const RunResult *intervalHolding(const std::vector<RunResult> &map, Bytes budget)
{
    const auto it =
        std::upper_bound(map.begin(), map.end(), budget, [](Bytes b, const RunResult &r) { return b < r.interval.lo; });
    return it == map.begin() || !std::prev(it)->interval.contains(budget) ? nullptr : &*std::prev(it);
}

void checkExactness(const LoadedProgram &loaded, const QString &model, double from, double to, std::size_t count)
{
    const RunConfig config = configFor(loaded, model);
    const ByteRange range{budgetForRatio(loaded.baseline, from), budgetForRatio(loaded.baseline, to) + 1};
    const std::vector<RunResult> map = walk(loaded, config, range);
    QVERIFY(!map.empty());
    QVERIFY(map.front().interval.contains(range.from) && map.back().interval.contains(range.end - 1));
    for (std::size_t i = 1; i < map.size(); ++i)
        QVERIFY2(map[i - 1].interval.hi == map[i].interval.lo, "the intervals do not tile the range");
    for (Bytes budget : drawBudgets(map, range, count)) {
        const RunResult *mapped = intervalHolding(map, budget);
        QVERIFY(mapped);
        RunConfig at = config;
        at.budget = budget;
        const RunResult replayed = Replay(*loaded.program, at).run();
        const QString problem = differences(replayed, *mapped, budget);
        QVERIFY2(problem.isEmpty(), qPrintable(QStringLiteral("%1 at %2 B in [%3, %4): %5")
                                                   .arg(model)
                                                   .arg(budget)
                                                   .arg(mapped->interval.lo)
                                                   .arg(mapped->interval.hi.value_or(-1))
                                                   .arg(problem)));
    }
}

std::vector<RunResult> mapHandTrace(const std::string &text, Bytes from, Bytes to)
{
    const LoadedProgram loaded{parse(text), {}};
    RunConfig config;
    config.policy = *findPolicy("LRU");
    config.allocator = modelNamed(QStringLiteral("caching"));
    return walk(loaded, config, ByteRange{from, to});
}

void compareStretch(const RunResult &r, Bytes lo, std::optional<Bytes> hi, Outcome outcome, std::optional<OomKind> kind)
{
    QCOMPARE(r.interval.lo, lo);
    QCOMPARE(r.interval.hi, hi);
    QCOMPARE(r.outcome, outcome);
    QCOMPARE(r.failure ? r.failure->oomKind : std::nullopt, kind);
}

} // namespace

class AllocatorMapTest : public QObject {
    Q_OBJECT

private slots:
    void ownTracesReplayAsTheirIntervals_data();
    void ownTracesReplayAsTheirIntervals();
    void publicTracesReplayAsTheirIntervals_data();
    void publicTracesReplayAsTheirIntervals();
    void splitStrandFailsFromFragmentation();
    void twentyMiBSegmentFailsFromFragmentation();
};

void AllocatorMapTest::ownTracesReplayAsTheirIntervals_data()
{
    QTest::addColumn<QString>("trace");
    QTest::addColumn<QString>("model");
    QTest::addColumn<double>("from");
    QTest::addColumn<double>("to");
    for (const char *name : {"demo", "chain", "unet", "resnet", "lstm"})
        for (const char *model : {"caching", "best-fit"})
            QTest::addRow("%s %s", name, model) << ownTracePath(QLatin1String(name) + QStringLiteral(".log"))
                                                << QString::fromLatin1(model) << 0.1 << 1.0;
    for (const char *model : {"caching expandable", "caching max-split", "caching after-op", "best-fit after-op"})
        QTest::addRow("unet %s", model) << ownTracePath(QStringLiteral("unet.log")) << QString::fromLatin1(model) << 0.1
                                        << 1.0;
}

void AllocatorMapTest::ownTracesReplayAsTheirIntervals()
{
    QFETCH(QString, trace);
    QFETCH(QString, model);
    QFETCH(double, from);
    QFETCH(double, to);
    const LoadedProgram loaded = loadProgram(trace);
    QVERIFY(loaded.program);
    checkExactness(loaded, model, from, to, 1000);
}

void AllocatorMapTest::publicTracesReplayAsTheirIntervals_data()
{
    QTest::addColumn<QString>("trace");
    QTest::addColumn<QString>("model");
    QTest::addColumn<double>("from");
    QTest::addColumn<double>("to");
    const QString shared = sharedDirectory();
    if (shared.isEmpty()) {
        QTest::newRow("public traces") << QString() << QStringLiteral("caching") << 0.25 << 0.2503;
        return;
    }
    const QDir dir(publicTracePath(shared, QString()));
    for (const QString &file : dir.entryList({QStringLiteral("*.log")}, QDir::Files, QDir::Name))
        for (const char *model : {"caching", "best-fit"})
            QTest::addRow("%s %s", qPrintable(file.section(QLatin1Char('-'), 0, 0)), model)
                << dir.filePath(file) << QString::fromLatin1(model) << 0.25
                << (QLatin1String(model) == QLatin1String("best-fit") ? 0.25002 : 0.2503);
}

void AllocatorMapTest::publicTracesReplayAsTheirIntervals()
{
    QFETCH(QString, trace);
    QFETCH(QString, model);
    QFETCH(double, from);
    QFETCH(double, to);
    if (trace.isEmpty())
        QSKIP("the public traces are not installed (../shared/traces/dtr-2020, or traces/download-dtr-traces.sh)");
    const LoadedProgram loaded = loadProgram(trace);
    QVERIFY(loaded.program);
    checkExactness(loaded, model, from, to, budgetsPerPublicTrace());
}

// The first worked example: 30 MiB live in the split 60 MiB segment, and w (45 MiB) needs a
// 46 MiB segment. From 75 MiB (30 + 45 fit the capacity) up to 106 MiB (60 reserved + 46) it
// fails although the bytes fit: fragmentation. Below 75 MiB they do not fit: capacity.
void AllocatorMapTest::splitStrandFailsFromFragmentation()
{
    constexpr Bytes GiB = Bytes{1} << 30;
    const std::vector<RunResult> map = mapHandTrace(workedExampleTrace(true), 50 * MiB, GiB);
    QCOMPARE(map.size(), std::size_t{4});
    compareStretch(map[0], 0, 60 * MiB, Outcome::OutOfMemory, OomKind::Capacity);
    compareStretch(map[1], 60 * MiB, 75 * MiB, Outcome::OutOfMemory, OomKind::Capacity);
    compareStretch(map[2], 75 * MiB, 106 * MiB, Outcome::OutOfMemory, OomKind::Fragmentation);
    compareStretch(map[3], 106 * MiB, std::nullopt, Outcome::Pass, std::nullopt);
    QCOMPARE(map[2].failure->tensor, std::string("w"));
    Failure failure = *map[2].failure;
    failure.restateAt(75 * MiB); // y's 20 MiB block; only 15 MiB are not reserved
    QCOMPARE(failure.largestFreeBlock, 20 * MiB);
    failure.restateAt(100 * MiB); // 40 MiB not reserved
    QCOMPARE(failure.largestFreeBlock, 40 * MiB);
}

// The second worked example: from 23 MiB (20 MiB allocated, the 8 MiB block whole at 9, plus 3)
// the bytes fit, but d needs a second 20 MiB segment until the capacity reaches 40 MiB.
void AllocatorMapTest::twentyMiBSegmentFailsFromFragmentation()
{
    const std::vector<RunResult> map = mapHandTrace(twentyMiBSegmentTrace(), 20 * MiB, 64 * MiB);
    QVERIFY(map.size() >= 2);
    const RunResult &fragmented = map[map.size() - 2];
    compareStretch(fragmented, 23 * MiB, 40 * MiB, Outcome::OutOfMemory, OomKind::Fragmentation);
    QCOMPARE(fragmented.failure->tensor, std::string("d"));
    QCOMPARE(fragmented.failure->request, 3 * MiB);
    compareStretch(map.back(), 40 * MiB, std::nullopt, Outcome::Pass, std::nullopt);
}

QTEST_GUILESS_MAIN(AllocatorMapTest)
#include "tst_allocator_map.moc"
