// Deferring region rebuilds is an optimisation that must not change a single result: the
// project's own traces and every public trace, every region-keeping policy, both runtimes that keep regions, a spread of
// budgets, replayed both ways and compared field by field and event by event. And the regions a
// copy of a replay shares with it (RegionTable) stay each one's own as either changes them.
#include "shared_data.h"

#include "core/sim/baseline.h"
#include "core/sim/region_table.h"
#include "core/sim/replay.h"
#include "core/trace/trace_reader.h"

#include <QtTest>

#include <memory>

using namespace rematlens;

class DeferredRegionsTest : public QObject {
    Q_OBJECT

private slots:
    void sameAsLiteralSchedule_data();
    void sameAsLiteralSchedule();
    void regionTableCopiesShareUntilChanged();
    void regionTableRegionsOutliveTheTablesThatMadeThem();
    void regionTableCopiesShareBlocksUntilOneChanges();
    void regionCopiedWithRoomFromACompactCopy();
};

void DeferredRegionsTest::sameAsLiteralSchedule_data()
{
    QTest::addColumn<QString>("trace");
    addOwnTraceRows();
    const QString shared = sharedDirectory();
    if (shared.isEmpty())
        qInfo("../shared is absent: the public traces are compared where it is (CI)");
    else
        addPublicTraceRows(shared);
}

void DeferredRegionsTest::sameAsLiteralSchedule()
{
    QFETCH(QString, trace);
    const TraceReadResult read = readTraceFile(trace.toStdString());
    QVERIFY2(read.ok(), read.error.toString().c_str());
    const Baseline baseline = computeBaseline(*read.program);
    const bool small = read.program->storages.size() < 2000;
    const std::vector<double> ratios = small ? std::vector<double>{0.1, 0.15, 0.2, 0.3, 0.45, 0.6, 0.8}
                                             : std::vector<double>{0.12, 0.15, 0.2, 0.235, 0.27, 0.35, 0.5};
    const std::vector<const char *> policies = small ? std::vector<const char *>{"DTR", "MSPS", "AbESize", "AbEStale", "AbE"}
                                                     : std::vector<const char *>{"DTR", "MSPS"};
    int compared = 0;
    for (const char *policy : policies)
        for (RuntimeKind runtime : {RuntimeKind::Eager, RuntimeKind::Lazy})
            for (double ratio : ratios) {
                RunConfig config;
                config.policy = *findPolicy(policy);
                config.runtime = runtime;
                config.budget = budgetForRatio(baseline, ratio);
                config.rematLimit = rematLimitFor(baseline, 2.0);
                RunRecording deferredRecording;
                RunRecording literalRecording;
                config.recording = &deferredRecording;
                const RunResult deferred = Replay(*read.program, config).run();
                config.deferRegionRebuilds = false;
                config.recording = &literalRecording;
                const std::vector<ReplayEvent> &deferredEvents = deferredRecording.events;
                const std::vector<ReplayEvent> &literalEvents = literalRecording.events;
                const RunResult literal = Replay(*read.program, config).run();
                const QString where = QStringLiteral("%1 %2 ratio %3").arg(QLatin1String(policy)).arg(static_cast<int>(runtime)).arg(ratio);
                QVERIFY2(deferred.outcome == literal.outcome, qPrintable(where));
                QVERIFY2(deferred.clock == literal.clock, qPrintable(where));
                QVERIFY2(deferred.maxMemory == literal.maxMemory, qPrintable(where));
                QVERIFY2(deferred.heuristicEvals == literal.heuristicEvals, qPrintable(where));
                QVERIFY2(deferredEvents.size() == literalEvents.size(), qPrintable(where));
                for (std::size_t i = 0; i < deferredEvents.size(); ++i)
                    QVERIFY2(deferredEvents[i].tensor == literalEvents[i].tensor && deferredEvents[i].clock == literalEvents[i].clock,
                             qPrintable(where + QStringLiteral(" event %1").arg(i)));
                ++compared;
            }
    qInfo("%d runs identical both ways", compared);
}

namespace {

std::vector<StorageId> membersOf(const Region &region)
{
    std::vector<StorageId> members;
    region.forEachMember([&](StorageId x) { members.push_back(x); });
    return members;
}

// Region s of a table of `storages` storages: members s and s + 1, compute s.
void fillRegion(Region &region, StorageId s, std::size_t storages = 100)
{
    region.clear();
    region.interiorFor(storages).insert(s);
    region.interiorFor(storages).insert(s + 1);
    region.compute = s;
}

bool holdsItsOwnRegion(const RegionTable &table, StorageId s)
{
    return membersOf(table[s]) == std::vector<StorageId>{s, s + 1} && table[s].compute == Cost{s};
}

} // namespace

// A copy sees the table as it was; a change, an overwrite or an absorb on either side leaves
// the other as it was; recycling a table keeps no region a copy still holds.
void DeferredRegionsTest::regionTableCopiesShareUntilChanged()
{
    RegionTable table(100, RegionTable{});
    for (StorageId s = 0; s < 90; ++s)
        fillRegion(table.overwrite(s), s);
    RegionTable copy(table);
    for (StorageId s = 0; s < 90; ++s)
        QVERIFY(copy.same(s, table));
    QCOMPARE(membersOf(copy[7]), (std::vector<StorageId>{7, 8}));

    table.change(7).interiorFor(100).insert(50);
    table.change(7).compute = 1000;
    QCOMPARE(membersOf(copy[7]), (std::vector<StorageId>{7, 8}));
    QCOMPARE(copy[7].compute, Cost{7});
    QCOMPARE(membersOf(table[7]), (std::vector<StorageId>{7, 8, 50}));
    QVERIFY(!copy.same(7, table));

    copy.overwrite(9).clear();
    QCOMPARE(copy[9].size(), std::size_t{0});
    QCOMPARE(membersOf(table[9]), (std::vector<StorageId>{9, 10}));

    auto computeOf = [](StorageId x) { return Cost{x}; };
    copy.change(20).absorb(30, copy[30], computeOf, 100);
    QCOMPARE(membersOf(copy[20]), (std::vector<StorageId>{20, 21, 30, 31}));
    QCOMPARE(membersOf(table[20]), (std::vector<StorageId>{20, 21}));
    QVERIFY(copy.same(30, table));

    // Recycled while the copy lives: the shared regions stay the copy's, the new table's are empty.
    RegionTable recycled(100, std::move(table));
    for (StorageId s = 0; s < 100; ++s)
        QCOMPARE(recycled[s].size(), std::size_t{0});
    QCOMPARE(membersOf(copy[40]), (std::vector<StorageId>{40, 41}));
    QCOMPARE(copy[40].compute, Cost{40});
}

// Whichever table made, changed or shared a region, it lives while any table holds it: tables dropped in any order, and new tables made
// after them (from the regions the dropped ones gave back), leave the others' regions as they
// were, and a new table's regions are empty.
void DeferredRegionsTest::regionTableRegionsOutliveTheTablesThatMadeThem()
{
    constexpr std::size_t storages = 201;
    auto first = std::make_unique<RegionTable>(storages, RegionTable{});
    for (StorageId s = 0; s + 1 < storages; ++s)
        fillRegion(first->overwrite(s), s, storages);
    auto second = std::make_unique<RegionTable>(*first);
    RegionTable third(*second);

    fillRegion(first->change(5), 6, storages);
    second->change(70).compute = 700;
    first.reset();
    RegionTable afterFirst(storages, RegionTable{});
    QVERIFY(holdsItsOwnRegion(third, 5));
    QVERIFY(holdsItsOwnRegion(*second, 6));
    QCOMPARE((*second)[70].compute, Cost{700});

    third.change(6).compute = 60; // a region third shares with second only
    second.reset();
    RegionTable afterSecond(storages, RegionTable{});
    for (StorageId s = 0; s + 1 < storages; ++s) {
        if (s != 6)
            QVERIFY2(holdsItsOwnRegion(third, s), qPrintable(QString::number(s)));
    }
    QCOMPARE(third[6].compute, Cost{60});
    for (StorageId s = 0; s < storages; ++s) {
        QCOMPARE(afterFirst[s].size(), std::size_t{0});
        QCOMPARE(afterSecond[s].size(), std::size_t{0});
        QCOMPARE(afterSecond[s].compute, Cost{0});
    }
}

// Regions are shared block by block: a change in a shared block gives the changing table a
// block of its own, whose other regions are still the ones the other table holds; changes
// in the same block on both sides stay each one's own.
void DeferredRegionsTest::regionTableCopiesShareBlocksUntilOneChanges()
{
    constexpr std::size_t storages = 5 * RegionTable::kBlockSize + 3;
    RegionTable table(storages, RegionTable{});
    for (StorageId s = 0; s + 1 < storages; ++s)
        fillRegion(table.overwrite(s), s, storages);
    RegionTable copy(table);

    const StorageId inFirst = 3;
    const StorageId inFourth = 3 * RegionTable::kBlockSize + 10;
    const StorageId besideInFourth = inFourth + 1;
    copy.change(inFirst).compute = 1;
    copy.change(inFourth).interiorFor(storages).insert(storages - 1);
    table.change(besideInFourth).compute = 2;

    for (StorageId s = 0; s + 1 < storages; ++s) {
        const bool changed = s == inFirst || s == inFourth || s == besideInFourth;
        QVERIFY2(copy.same(s, table) == !changed, qPrintable(QString::number(s)));
        if (s != inFirst && s != inFourth)
            QVERIFY2(holdsItsOwnRegion(copy, s), qPrintable(QString::number(s)));
        if (s != besideInFourth)
            QVERIFY2(holdsItsOwnRegion(table, s), qPrintable(QString::number(s)));
    }
    QCOMPARE(table[besideInFourth].compute, Cost{2});
    QCOMPARE(copy[inFirst].compute, Cost{1});
    QCOMPARE(membersOf(copy[inFourth]), (std::vector<StorageId>{inFourth, inFourth + 1, StorageId(storages - 1)}));
}

// A region copied so that it can be changed next holds the same storages and compute, whatever
// the layout of the region it copies (a compact copy starts at its first word).
void DeferredRegionsTest::regionCopiedWithRoomFromACompactCopy()
{
    constexpr std::size_t storages = 1000;
    Region original;
    original.interiorFor(storages).insert(700);
    original.interiorFor(storages).insert(705);
    original.frontierFor(storages).insert(640);
    original.compute = 9;
    const Region compact = original;

    Region copied;
    fillRegion(copied, 5, storages);
    copied.assignWithRoom(compact, storages);
    QCOMPARE(membersOf(copied), (std::vector<StorageId>{700, 705}));
    QCOMPARE(copied.compute, Cost{9});
    QVERIFY(copied.sameAs(original));
    copied.interiorFor(storages).insert(3);
    QCOMPARE(membersOf(copied), (std::vector<StorageId>{3, 700, 705}));
    QCOMPARE(membersOf(compact), (std::vector<StorageId>{700, 705}));

    Region fromEmpty;
    fillRegion(fromEmpty, 8, storages);
    fromEmpty.assignWithRoom(Region{}, storages);
    QCOMPARE(fromEmpty.size(), std::size_t{0});
    QCOMPARE(fromEmpty.compute, Cost{0});
}

QTEST_GUILESS_MAIN(DeferredRegionsTest)
#include "tst_deferred_regions.moc"
