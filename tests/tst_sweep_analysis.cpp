// Budget grids, hole detection and edge bisection on synthetic outcome sequences.
#include "core/sweep/decimal_grid.h"
#include "core/sweep/edge_bisector.h"
#include "core/sweep/hole_finder.h"

#include <QtTest>

using namespace rematlens;

namespace {

// "PPF.FP" -> outcomes: P pass, F out of memory, T thrash, . timeout
std::vector<BudgetOutcome> sequence(const char *pattern)
{
    std::vector<BudgetOutcome> grid;
    for (int i = 0; pattern[i]; ++i) {
        Outcome o = Outcome::Pass;
        switch (pattern[i]) {
        case 'F': o = Outcome::OutOfMemory; break;
        case 'T': o = Outcome::Thrash; break;
        case '.': o = Outcome::Timeout; break;
        default: break;
        }
        grid.push_back({0.1 * (i + 1), (i + 1) * 100, o});
    }
    return grid;
}

QString holesOf(const HoleReport &r)
{
    QStringList parts;
    for (const Hole &h : r.holes)
        parts << QStringLiteral("%1-%2").arg(h.firstFail).arg(h.lastFail);
    return parts.join(QLatin1Char(' '));
}

} // namespace

class SweepAnalysisTest : public QObject {
    Q_OBJECT

private slots:
    void holes_data();
    void holes();
    void unresolvedGapIsNoHole();
    void gridIsExactDecimals();
    void gridRejectsBadBounds_data();
    void gridRejectsBadBounds();
    void bisectionFindsAdjacentBytes();
    void bisectionStopsAtTimeout();
};

void SweepAnalysisTest::holes_data()
{
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("holes");
    QTest::addColumn<int>("firstSuccess");
    QTest::addColumn<int>("stableFrom");
    QTest::addColumn<int>("failuresAbove");
    QTest::newRow("all pass") << QStringLiteral("PPPP") << QString() << 0 << 0 << 0;
    QTest::newRow("all fail") << QStringLiteral("FFFF") << QString() << -1 << -1 << 0;
    QTest::newRow("monotone") << QStringLiteral("FFPPP") << QString() << 2 << 2 << 0;
    QTest::newRow("one hole") << QStringLiteral("FPFFPP") << QStringLiteral("2-3") << 1 << 4 << 2;
    QTest::newRow("adjacent holes") << QStringLiteral("FPFPTPP") << QStringLiteral("2-2 4-4") << 1 << 5 << 2;
    QTest::newRow("hole at the first pass") << QStringLiteral("PFP") << QStringLiteral("1-1") << 0 << 2 << 1;
    QTest::newRow("failing tail is no hole") << QStringLiteral("FPPFF") << QString() << 1 << -1 << 2;
    QTest::newRow("timeout inside failures is no hole") << QStringLiteral("PF.FP") << QString() << 0 << 4 << 2;
    QTest::newRow("a timeout splits no hole off") << QStringLiteral("PFP.FP") << QStringLiteral("1-1") << 0 << 5 << 2;
    QTest::newRow("timeout breaks stability") << QStringLiteral("FPP.P") << QString() << 1 << 4 << 0;
    QTest::newRow("thrash counts as failure") << QStringLiteral("PTP") << QStringLiteral("1-1") << 0 << 2 << 1;
}

void SweepAnalysisTest::holes()
{
    QFETCH(QString, pattern);
    QFETCH(QString, holes);
    QFETCH(int, firstSuccess);
    QFETCH(int, stableFrom);
    QFETCH(int, failuresAbove);
    const HoleReport r = findHoles(sequence(pattern.toLatin1().constData()));
    QCOMPARE(holesOf(r), holes);
    QCOMPARE(r.firstSuccess ? static_cast<int>(*r.firstSuccess) : -1, firstSuccess);
    QCOMPARE(r.stableFrom ? static_cast<int>(*r.stableFrom) : -1, stableFrom);
    QCOMPARE(static_cast<int>(r.failuresAboveFirstSuccess.size()), failuresAbove);
}

void SweepAnalysisTest::unresolvedGapIsNoHole()
{
    const HoleReport r = findHoles(sequence("P..P"));
    QVERIFY(r.holes.empty());
    QCOMPARE(r.unresolvedGaps.size(), std::size_t{1});
    QCOMPARE(r.unresolvedGaps.front().first, std::size_t{1});
    QCOMPARE(r.unresolvedGaps.front().second, std::size_t{2});
    const HoleReport mixed = findHoles(sequence("PF.FP"));
    QVERIFY(mixed.holes.empty());
    QCOMPARE(mixed.unresolvedGaps.size(), std::size_t{1});
    QCOMPARE(mixed.unresolvedGaps.front().first, std::size_t{1});
    QCOMPARE(mixed.unresolvedGaps.front().second, std::size_t{3});
}

void SweepAnalysisTest::gridIsExactDecimals()
{
    std::string error;
    const auto grid = DecimalGrid::make("0.4", "0.45", "0.001", error);
    QVERIFY2(grid.has_value(), error.c_str());
    QCOMPARE(grid->size(), std::size_t{51});
    QCOMPARE(grid->at(19).text, std::string("0.419"));
    QCOMPARE(grid->at(19).ratio, 0.419); // the double nearest 0.419, not 0.4 + 19 * 0.001
    QVERIFY(0.4 + 19 * 0.001 != 0.419);
    QCOMPARE(grid->back().ratio, 0.45);
    const auto coarse = DecimalGrid::make("0.1", "1", "0.1", error);
    QVERIFY(coarse.has_value());
    QCOMPARE(coarse->size(), std::size_t{10});
    QCOMPARE(coarse->at(2).ratio, 0.3);
}

void SweepAnalysisTest::gridRejectsBadBounds_data()
{
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<QString>("step");
    QTest::newRow("zero step") << QStringLiteral("0.1") << QStringLiteral("1") << QStringLiteral("0");
    QTest::newRow("reversed") << QStringLiteral("0.9") << QStringLiteral("0.1") << QStringLiteral("0.1");
    QTest::newRow("not a number") << QStringLiteral("a") << QStringLiteral("1") << QStringLiteral("0.1");
    QTest::newRow("negative") << QStringLiteral("-0.1") << QStringLiteral("1") << QStringLiteral("0.1");
    QTest::newRow("too many points") << QStringLiteral("0.0000001") << QStringLiteral("10") << QStringLiteral("0.0000001");
}

void SweepAnalysisTest::gridRejectsBadBounds()
{
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(QString, step);
    std::string error;
    QVERIFY(!DecimalGrid::make(from.toStdString(), to.toStdString(), step.toStdString(), error));
    QVERIFY(!error.empty());
}

void SweepAnalysisTest::bisectionFindsAdjacentBytes()
{
    // Fails below 123456789, passes from there on.
    int calls = 0;
    const BudgetEdge edge = bisectEdge(1000, Outcome::OutOfMemory, 1'000'000'000, Outcome::Pass, [&](Bytes b) {
        ++calls;
        return b >= 123456789 ? Outcome::Pass : Outcome::OutOfMemory;
    });
    QVERIFY(edge.resolved);
    QCOMPARE(edge.below, Bytes{123456788});
    QCOMPARE(edge.above, Bytes{123456789});
    QCOMPARE(edge.runs, calls);
    QVERIFY(calls <= 31);
    // From pass down to failure works the same way.
    const BudgetEdge down = bisectEdge(10, Outcome::Pass, 90, Outcome::Thrash,
                                       [](Bytes b) { return b <= 42 ? Outcome::Pass : Outcome::Thrash; });
    QCOMPARE(down.below, Bytes{42});
    QCOMPARE(down.above, Bytes{43});
}

void SweepAnalysisTest::bisectionStopsAtTimeout()
{
    const BudgetEdge edge = bisectEdge(0, Outcome::OutOfMemory, 1024, Outcome::Pass,
                                       [](Bytes b) { return b == 512 ? Outcome::Timeout : Outcome::Pass; });
    QVERIFY(!edge.resolved);
    QCOMPARE(edge.below, Bytes{0});
    QCOMPARE(edge.above, Bytes{1024});
}

QTEST_GUILESS_MAIN(SweepAnalysisTest)
#include "tst_sweep_analysis.moc"
