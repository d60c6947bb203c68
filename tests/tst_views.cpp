// The models behind the views (checked by QAbstractItemModelTester) and the strip's geometry.
#include "core/sweep/sweep_plan.h"
#include "core/sweep/sweep_runner.h"
#include "core/trace/program_stats.h"
#include "core/trace/trace_reader.h"
#include "views/common/byte_scale.h"
#include "views/common/byte_units.h"
#include "views/common/table_copier.h"
#include "views/strip/strip_figure.h"
#include "views/strip/strip_geometry.h"
#include "views/tables/hole_list_model.h"
#include "views/tables/run_details_model.h"
#include "views/tables/sweep_result_model.h"
#include "views/tables/trace_summary_model.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QTableView>
#include <QtTest>

using namespace rematlens;

namespace {

// Two policies over a grid with a hole: DTR fails at 0.3 and passes at 0.2 and 0.4 (made up).
struct FakeSweep {
    std::vector<GridPoint> grid{{"0.1", 0.1}, {"0.2", 0.2}, {"0.3", 0.3}, {"0.4", 0.4}};
    std::vector<RunRequest> requests;
    Baseline baseline{1000, 100, 10, 50, 0};

    FakeSweep()
    {
        SweepSettings settings;
        settings.policies = {*findPolicy("DTR"), *findPolicy("LRU")};
        requests = planSweep(settings, baseline, grid);
    }
    static RunResult result(Outcome o)
    {
        RunResult r;
        r.outcome = o;
        r.clock = 150;
        return r;
    }
};

} // namespace

class ViewsTest : public QObject {
    Q_OBJECT

private slots:
    void sweepModelsPassTheTester();
    void holesFollowResults();
    void stripLegendKeepsItsPlace();
    void detailsAndSummaryPassTheTester();
    void exactBytesAreReadableAndCopied();
    void stripGeometry();
    void byteUnitsReadTheSameEverywhere();
};

void ViewsTest::sweepModelsPassTheTester()
{
    SweepResultModel sweep;
    HoleListModel holes;
    QAbstractItemModelTester sweepTester(&sweep, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester holesTester(&holes, QAbstractItemModelTester::FailureReportingMode::QtTest);
    FakeSweep fake;
    sweep.reset(fake.baseline, fake.grid, fake.requests, 2, 2.0);
    QCOMPARE(sweep.rowCount(), 8);
    QCOMPARE(sweep.data(sweep.index(0, SweepResultModel::ResultColumn)).toString(), QStringLiteral("not run"));
    QSignalSpy changed(&sweep, &QAbstractItemModel::dataChanged);
    sweep.addResults({{1, FakeSweep::result(Outcome::Pass)}, {2, FakeSweep::result(Outcome::OutOfMemory)}});
    QCOMPARE(changed.count(), 1); // one batch, one signal
    QCOMPARE(sweep.finishedCount(), std::size_t{2});
    QCOMPARE(sweep.data(sweep.index(2, SweepResultModel::ResultColumn)).toString(), QStringLiteral("out of memory"));
    QCOMPARE(sweep.data(sweep.index(1, SweepResultModel::OverheadColumn)).toDouble(), 1.5);
    QCOMPARE(sweep.policyName(1), QStringLiteral("LRU"));
    holes.rebuild(sweep);
    sweep.clear();
    holes.rebuild(sweep);
    QCOMPARE(holes.rowCount(), 0);
}

void ViewsTest::holesFollowResults()
{
    SweepResultModel sweep;
    HoleListModel holes;
    QAbstractItemModelTester holesTester(&holes, QAbstractItemModelTester::FailureReportingMode::QtTest);
    FakeSweep fake;
    sweep.reset(fake.baseline, fake.grid, fake.requests, 2, 2.0);
    sweep.addResults({{0, FakeSweep::result(Outcome::OutOfMemory)},
                      {1, FakeSweep::result(Outcome::Pass)},
                      {2, FakeSweep::result(Outcome::OutOfMemory)}});
    holes.rebuild(sweep);
    QCOMPARE(holes.rowCount(), 0); // 0.4 not run yet: the failure at 0.3 is not known to be a hole
    sweep.addResults({{3, FakeSweep::result(Outcome::Pass)}});
    holes.rebuild(sweep);
    QCOMPARE(holes.rowCount(), 1);
    QCOMPARE(holes.data(holes.index(0, HoleListModel::FirstFailColumn)).toString(), QStringLiteral("0.3"));
    QCOMPARE(holes.data(holes.index(0, HoleListModel::PassAboveColumn)).toString(), QStringLiteral("0.4"));
    QCOMPARE(holes.entry(0).policy, std::size_t{0});
    QCOMPARE(holes.reports().size(), std::size_t{2});
}

// The legend lists what the strip can show before the runs arrive: a sweep does not reflow it.
void ViewsTest::stripLegendKeepsItsPlace()
{
    SweepResultModel sweep;
    HoleListModel holes;
    FakeSweep fake;
    sweep.reset(fake.baseline, fake.grid, fake.requests, 2, 2.0);
    const StripFigure figure({StripFigure::Panel{QStringLiteral("fake"), &sweep, &holes}});
    const FigureStyle style;
    const QStringList before = figure.legend(style).labels();
    const double heightBefore = figure.legend(style).height(500);
    for (const char *label : {"pass", "out of memory", "over the compute limit", "not run", "DTR overhead", "LRU overhead"})
        QVERIFY2(before.contains(QLatin1String(label)), qPrintable(before.join(QStringLiteral(", "))));
    sweep.addResults({{0, FakeSweep::result(Outcome::OutOfMemory)}, {1, FakeSweep::result(Outcome::Pass)}});
    holes.rebuild(sweep);
    QCOMPARE(figure.legend(style).labels(), before);
    sweep.addResults({{2, FakeSweep::result(Outcome::Thrash)}, {3, FakeSweep::result(Outcome::Pass)},
                      {4, FakeSweep::result(Outcome::Pass)}, {5, FakeSweep::result(Outcome::Pass)},
                      {6, FakeSweep::result(Outcome::Pass)}});
    holes.rebuild(sweep);
    QCOMPARE(figure.legend(style).labels(), before);
    QCOMPARE(figure.legend(style).height(500), heightBefore);
    // The last cell in: "not run" goes, once, and nothing else changes.
    sweep.addResults({{7, FakeSweep::result(Outcome::Pass)}});
    QStringList done = before;
    done.removeAll(QStringLiteral("not run"));
    QCOMPARE(figure.legend(style).labels(), done);
    sweep.addResults({{0, FakeSweep::result(Outcome::Timeout)}}); // a wall limit's: it gets its entry
    QVERIFY(figure.legend(style).labels().contains(QStringLiteral("timeout")));
}

namespace {

// The value shown beside a field label, empty when the label is not listed.
QString valueOf(const RunDetailsModel &details, const QString &label)
{
    for (int row = 0; row < details.rowCount(); ++row)
        if (details.data(details.index(row, 0)).toString() == label)
            return details.data(details.index(row, 1)).toString();
    return {};
}

} // namespace

// A byte value cut by a narrow column ("3.45 GiB …") reads exactly in its tooltip, and Copy
// takes its number of bytes.
void ViewsTest::exactBytesAreReadableAndCopied()
{
    RunDetailsModel details;
    FakeSweep fake;
    RunRequest request = fake.requests[0];
    request.config.budget = 3704610816;
    details.setRun(request, FakeSweep::result(Outcome::Pass), fake.baseline);
    const int budgetRow = 3;
    QCOMPARE(details.data(details.index(budgetRow, 0)).toString(), QStringLiteral("budget"));
    const QString tip = details.data(details.index(budgetRow, 1), Qt::ToolTipRole).toString();
    QVERIFY2(tip.startsWith(QStringLiteral("budget: 3,704,610,816 B (3.45 GiB)\n")), qPrintable(tip));
    QCOMPARE(details.data(details.index(budgetRow, 1), TableCopier::kExactValueRole).toString(),
             QStringLiteral("3704610816"));
    QVERIFY(!details.data(details.index(0, 1), TableCopier::kExactValueRole).isValid()); // not bytes: its text

    QTableView view;
    view.setModel(&details);
    auto *copier = new TableCopier(&view);
    QCOMPARE(view.contextMenuPolicy(), Qt::ActionsContextMenu);
    QVERIFY(view.actions().contains(copier->copyAction()));
    QCOMPARE(copier->copyAction()->text().remove(QLatin1Char('&')), QStringLiteral("Copy"));
    view.setCurrentIndex(details.index(budgetRow, 1));
    QCOMPARE(copier->selectedText(), QStringLiteral("3704610816"));
    view.selectionModel()->select(QItemSelection(details.index(0, 0), details.index(budgetRow, 1)),
                                  QItemSelectionModel::ClearAndSelect);
    const QString table = copier->selectedText();
    QCOMPARE(table.split(QLatin1Char('\n')).size(), budgetRow + 1);
    QCOMPARE(table.split(QLatin1Char('\n')).first(), QStringLiteral("policy\tDTR"));
    QCOMPARE(table.split(QLatin1Char('\n')).last(), QStringLiteral("budget\t3704610816"));
    // Ctrl+C in the focused table puts the same on the clipboard.
    view.show();
    QVERIFY(QTest::qWaitForWindowActive(&view));
    view.setFocus();
    QGuiApplication::clipboard()->clear();
    QTest::keySequence(&view, QKeySequence::Copy);
    QCOMPARE(QGuiApplication::clipboard()->text(), table);
}

void ViewsTest::detailsAndSummaryPassTheTester()
{
    RunDetailsModel details;
    QAbstractItemModelTester detailsTester(&details, QAbstractItemModelTester::FailureReportingMode::QtTest);
    FakeSweep fake;
    RunResult failed = FakeSweep::result(Outcome::OutOfMemory);
    failed.failure = Failure{3, 12, "aten::conv2d", "x7", 100, 900, 50, 2, 900};
    details.setRun(fake.requests[0], failed, fake.baseline);
    QVERIFY(details.rowCount() > 10);
    bool sawShort = false;
    for (int row = 0; row < details.rowCount(); ++row)
        sawShort = sawShort || (details.data(details.index(row, 0)).toString() == QStringLiteral("bytes short") &&
                                details.data(details.index(row, 1), Qt::ToolTipRole)
                                    .toString()
                                    .contains(QStringLiteral("failure.bytes_short in the records")));
    QVERIFY(sawShort);
    const int budgetRow = 3;
    QCOMPARE(details.data(details.index(budgetRow, 0)).toString(), QStringLiteral("budget"));
    QCOMPARE(details.data(details.index(budgetRow, 1)).toString(), QStringLiteral("100 B")); // under 1 KiB: exact only
    RunRequest large = fake.requests[0];
    large.config.budget = 3 * 1024 * 1024 + 5;
    details.setRun(large, failed, fake.baseline);
    QCOMPARE(details.data(details.index(budgetRow, 1)).toString(), QStringLiteral("3.00 MiB (3,145,733 B)"));
    details.setRun(fake.requests[1], std::nullopt, fake.baseline);
    QCOMPARE(valueOf(details, QStringLiteral("allocator")), QStringLiteral("sum"));
    QCOMPARE(valueOf(details, QStringLiteral("peak reserved")), QString()); // the byte sum has no allocator rows

    // Under an allocator model: its peaks, and why the request failed.
    RunRequest caching = fake.requests[0];
    caching.config.allocator.kind = AllocatorKind::Caching;
    RunResult fragmented = failed;
    fragmented.allocation = AllocationSummary{4000, 3000, 1, {}};
    fragmented.failure->oomKind = OomKind::Fragmentation;
    fragmented.failure->request = 512;
    fragmented.failure->largestFreeBlock = 256;
    details.setRun(caching, fragmented, fake.baseline);
    QCOMPARE(valueOf(details, QStringLiteral("allocator")), QStringLiteral("caching"));
    QCOMPARE(valueOf(details, QStringLiteral("peak reserved")), QStringLiteral("3.91 KiB (4,000 B)"));
    QCOMPARE(valueOf(details, QStringLiteral("peak allocated")), QStringLiteral("2.93 KiB (3,000 B)"));
    QCOMPARE(valueOf(details, QStringLiteral("fragmentation")), QStringLiteral("0.2500"));
    QCOMPARE(valueOf(details, QStringLiteral("out of memory by")), QStringLiteral("fragmentation"));
    QCOMPARE(valueOf(details, QStringLiteral("request")), QStringLiteral("512 B"));
    QCOMPARE(valueOf(details, QStringLiteral("largest free block")), QStringLiteral("256 B"));
    details.clear();

    TraceSummaryModel summary;
    QAbstractItemModelTester summaryTester(&summary, QAbstractItemModelTester::FailureReportingMode::QtTest);
    summary.setSummary(TraceSummary{QStringLiteral("t.log"), fake.baseline, ProgramStats{}});
    QCOMPARE(summary.columnCount(), 2);
    QVERIFY(summary.rowCount() >= 8);
    QCOMPARE(TraceSummaryModel::formatBytes(8415764640), QStringLiteral("7.84 GiB (8,415,764,640 B)"));
}

// One unit system for every view: binary by default, decimal when chosen, switched everywhere.
void ViewsTest::byteUnitsReadTheSameEverywhere()
{
    QCOMPARE(ByteUnits::system(), UnitSystem::Binary);
    QCOMPARE(ByteUnits::format(0), QStringLiteral("0 B"));
    QCOMPARE(ByteUnits::format(1023), QStringLiteral("1,023 B"));
    QCOMPARE(ByteUnits::format(1024), QStringLiteral("1.00 KiB"));
    QCOMPARE(ByteUnits::format(5.5e6), QStringLiteral("5.25 MiB"));
    QCOMPARE(ByteUnits::format(150.0 * 1024 * 1024), QStringLiteral("150 MiB"));
    QCOMPARE(ByteUnits::format(-2048), QStringLiteral("-2.00 KiB"));
    QCOMPARE(QString::fromLatin1(ByteScale::forPeak(5.5e6).unit.data()), QStringLiteral("MiB"));
    ByteUnits::setSystem(UnitSystem::Decimal);
    QCOMPARE(ByteUnits::format(5.5e6), QStringLiteral("5.50 MB"));
    QCOMPARE(ByteUnits::format(999), QStringLiteral("999 B"));
    QCOMPARE(ByteUnits::format(12.5e9), QStringLiteral("12.5 GB"));
    QCOMPARE(QString::fromLatin1(ByteScale::forPeak(5.5e6).unit.data()), QStringLiteral("MB"));
    QCOMPARE(ByteScale::forPeak(5.5e6).divisor, 1e6);
    QCOMPARE(TraceSummaryModel::formatBytes(8415764640), QStringLiteral("8.42 GB (8,415,764,640 B)"));
    ByteUnits::setSystem(UnitSystem::Binary);
    UnitSystem parsed = UnitSystem::Binary;
    QVERIFY(ByteUnits::parseSystem("decimal", parsed));
    QCOMPARE(parsed, UnitSystem::Decimal);
    QVERIFY(!ByteUnits::parseSystem("metric", parsed));
}

void ViewsTest::stripGeometry()
{
    StripGeometry g;
    g.bounds = QRectF(0, 0, 1110, 400);
    g.columns = 100;
    g.rows = 2;
    const QRectF cells = g.cellArea();
    QVERIFY(g.plotArea().bottom() < cells.top());
    QCOMPARE(cells.left(), 110.0);
    QCOMPARE(cells.width(), 1110.0 - 110 - 16);
    QCOMPARE(g.columnAt(cells.left()), std::optional<int>(0));
    QCOMPARE(g.columnAt(cells.right() - 0.01), std::optional<int>(99));
    QCOMPARE(g.columnAt(-50), std::optional<int>(0)); // clamped
    QCOMPARE(g.columnAt(5000), std::optional<int>(99));
    QCOMPARE(g.rowAt(cells.top() + 1), std::optional<int>(0));
    QCOMPARE(g.rowAt(cells.bottom() - 1), std::optional<int>(1));
    QVERIFY(!g.rowAt(cells.top() - 1).has_value());
    const QRectF c = g.cell(1, 50);
    QCOMPARE(g.columnAt(c.center().x()), std::optional<int>(50));
    QCOMPARE(g.rowAt(c.center().y()), std::optional<int>(1));
    QCOMPARE(g.columnCenter(50), c.center().x());
    QCOMPARE(g.overheadY(1.0, 2.0), g.plotArea().bottom());
    QCOMPARE(g.overheadY(2.0, 2.0), g.plotArea().top());
    QCOMPARE(g.overheadY(9.0, 2.0), g.plotArea().top()); // clamped
    StripGeometry empty;
    QVERIFY(!empty.columnAt(10).has_value());
}

QTEST_MAIN(ViewsTest)
#include "tst_views.moc"
