// One identity for a run, one selection every view observes: rows that differ only in
// allocator model never show each other's runs or maps, and holes never cover budgets that
// were not run or not mapped.
#include "gui/test_window.h"
#include "shared_data.h"

#include "app/gui/main_window.h"
#include "app/gui/map_cache.h"
#include "app/gui/run_views_controller.h"
#include "core/sim/run_identity.h"
#include "views/common/run_selection.h"
#include "views/memory/memory_map_panel.h"
#include "views/memory/memory_map_view.h"
#include "views/strip/feasibility_strip.h"
#include "views/strip/mapped_row.h"
#include "views/tables/exact_map_model.h"
#include "views/tables/hole_list_model.h"
#include "views/tables/sweep_result_model.h"
#include "views/timeline/timeline_panel.h"
#include "views/timeline/timeline_view.h"

#include <QTemporaryDir>
#include <set>
#include <QtTest>

using namespace rematlens;

namespace {

const char *const kResNet = "resnet32-56-9000000000.0-2020-10-1-13-3-30-default.log";
const char *const kUNet = "unet-6-8000000000.0-2020-10-1-10-57-18-default.log";

SweepParameters allocatorRows(const char *from, const char *to, const char *step, const char *limit)
{
    SweepParameters p;
    p.policies = {QStringLiteral("DTR")};
    p.from = QString::fromLatin1(from);
    p.to = QString::fromLatin1(to);
    p.step = QString::fromLatin1(step);
    p.overheadLimit = QString::fromLatin1(limit);
    p.allocators = {QStringLiteral("sum"), QStringLiteral("caching"), QStringLiteral("best-fit")};
    return p;
}

// Every budget of every hole the table lists was run (grid) or mapped (exact), and failed.
void checkHolesAreKnown(const MainWindow &window)
{
    const SweepResultModel &sweep = *window.sweepModel();
    const HoleListModel &holes = *window.holeModel();
    for (int i = 0; i < holes.rowCount(); ++i) {
        const HoleListModel::Entry &e = holes.entry(i);
        if (e.exact) {
            const MappedRow *row = window.exactMaps()->row(sweep.request(e.policy, 0));
            QVERIFY(row);
            for (const ByteRange &gap : row->summary.unmapped)
                QVERIFY2(gap.end <= e.exact->firstFail || gap.from > e.exact->lastFail, "a hole covers unmapped bytes");
            for (const Bytes b : {e.exact->firstFail, e.exact->lastFail}) {
                const RunResult *r = row->intervalAt(b);
                QVERIFY(r && isFailure(r->outcome));
            }
            continue;
        }
        for (std::size_t c = e.hole.lastPassBelow; c <= e.hole.firstPassAbove; ++c) {
            const std::optional<RunResult> &r = sweep.result(e.policy, c);
            QVERIFY2(r.has_value(), "a hole covers a cell not run");
            const bool edge = c == e.hole.lastPassBelow || c == e.hole.firstPassAbove;
            QCOMPARE(r->outcome == Outcome::Pass, edge);
        }
    }
}

} // namespace

class SelectionIdentityTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void identityNamesEveryField();
    void selectionSaysOnlyChanges();
    void holesNeedKnownEdges();
    void oldMapKeysAreTheSumRows();
    void allocatorRowsShowTheirOwnRuns_data();
    void allocatorRowsShowTheirOwnRuns();
    void mapsBelongToOneRow_data();
    void mapsBelongToOneRow();
    void cancelledMapAndSweepClaimNoUnknownHole();

private:
    bool openAndSweep(const QString &trace, const SweepParameters &p);
    void checkViewsFollow();

    GuiTestUser m_user;
    std::unique_ptr<MainWindow> m_window;
};

void SelectionIdentityTest::initTestCase()
{
    m_user.setUp();
}

void SelectionIdentityTest::init()
{
    m_user.reset();
}

void SelectionIdentityTest::cleanup()
{
    m_window.reset();
}

void SelectionIdentityTest::identityNamesEveryField()
{
    RunRequest a;
    a.config.budget = 1000;
    const RunIdentity base = runIdentityOf("hash", a);
    QCOMPARE(runIdentityOf("hash", a), base);
    std::vector<RunRequest> others(7, a);
    others[0].config.allocator.kind = AllocatorKind::Caching;
    others[1].config.allocator.kind = AllocatorKind::Caching; // coupling and options matter under a model
    others[1].config.allocator.eviction = EvictionCoupling::AfterOp;
    others[6].config.allocator.kind = AllocatorKind::Caching;
    others[6].config.allocator.caching.expandableSegments = true;
    others[2].config.seed = 7;
    others[3].keep = {"x12"};
    others[3].config.keepResident = {12};
    others[4].overheadLimit = 60;
    others[5].config.budget = 1001;
    std::set<std::string> keys{base.key()};
    for (const RunRequest &other : others) {
        QVERIFY(!(runIdentityOf("hash", other) == base));
        keys.insert(runIdentityOf("hash", other).key());
    }
    QCOMPARE(keys.size(), others.size() + 1);
    QVERIFY(!(runIdentityOf("other", a) == base)); // the trace is part of the identity
    QCOMPARE(QString::fromStdString(base.row.key()), ExactMapModel::keyOf(a));
}

void SelectionIdentityTest::selectionSaysOnlyChanges()
{
    RunSelection selection;
    QSignalSpy changed(&selection, &RunSelection::changed);
    RunRequest request;
    request.config.budget = 10;
    const SelectedRun run{runIdentityOf("h", request), request, std::nullopt};
    selection.select(run);
    selection.select(run);
    QCOMPARE(changed.count(), 1);
    SelectedRun interval = run;
    interval.interval = BudgetInterval{10, 20};
    selection.select(interval);
    QCOMPARE(changed.count(), 2);
    selection.clear();
    selection.clear();
    QCOMPARE(changed.count(), 3);
    QVERIFY(!selection.current());
}

// P F . F P: the unrun budget may pass, so no hole is claimed there; P F F P is one.
void SelectionIdentityTest::holesNeedKnownEdges()
{
    SweepResultModel sweep;
    Baseline baseline;
    baseline.memory = 1000;
    std::vector<GridPoint> grid;
    std::vector<RunRequest> requests;
    for (int i = 0; i < 9; ++i) {
        grid.push_back(GridPoint{std::to_string(i), 0.1 * (i + 1)});
        RunRequest r;
        r.config.budget = Bytes(100 * (i + 1));
        requests.push_back(r);
    }
    sweep.reset(baseline, grid, requests, 1, 2.0, "h");
    const auto result = [](Outcome o) {
        RunResult r;
        r.outcome = o;
        return r;
    };
    // columns 0..8: P F (not run) F P F F P P
    const Outcome o[] = {Outcome::Pass, Outcome::OutOfMemory, Outcome::Cancelled, Outcome::Thrash, Outcome::Pass,
                         Outcome::OutOfMemory, Outcome::OutOfMemory, Outcome::Pass, Outcome::Pass};
    std::vector<IndexedResult> results;
    for (std::size_t i = 0; i < 9; ++i)
        if (o[i] != Outcome::Cancelled)
            results.push_back({i, result(o[i])});
    sweep.addResults(results);
    HoleListModel holes;
    holes.rebuild(sweep);
    QCOMPARE(holes.rowCount(), 1);
    QCOMPARE(holes.entry(0).hole.firstFail, std::size_t{5});
    QCOMPARE(holes.entry(0).hole.lastFail, std::size_t{6});
    QCOMPARE(holes.reports().front().unresolvedGaps.size(), std::size_t{1});
    sweep.addResults({{2, result(Outcome::OutOfMemory)}});
    holes.rebuild(sweep);
    QCOMPARE(holes.rowCount(), 2); // now known: 1..3 fail between passes
}

// Maps kept before they were keyed by the whole row identity could only be the byte sum's.
void SelectionIdentityTest::oldMapKeysAreTheSumRows()
{
    QVERIFY(QDir().mkpath(MapCache::directory()));
    QFile file(MapCache::pathOf(QStringLiteral("0123abcd")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"key":"DTR/eager/2/","range":[100,200]})" "\n");
    file.close();
    const std::map<QString, MapCache::Stored> stored = MapCache::read(MapCache::pathOf(QStringLiteral("0123abcd")));
    QCOMPARE(stored.size(), std::size_t{1});
    ExactMapModel maps;
    maps.setTrace(QStringLiteral("0123abcd"));
    maps.add(stored.begin()->first, stored.begin()->second.ranges.front(), stored.begin()->second.intervals);
    RunRequest sum;
    sum.overheadLimit = 2;
    QVERIFY(maps.row(sum));
    RunRequest caching = sum;
    caching.config.allocator.kind = AllocatorKind::Caching;
    QVERIFY(!maps.row(caching));
}

// A new window, as at a first start, showing `trace` swept with `p`.
bool SelectionIdentityTest::openAndSweep(const QString &trace, const SweepParameters &p)
{
    m_window = showNewWindow();
    return ::openAndSweep(*m_window, trace, p, 120000);
}

// Right after a change no view shows an older run; once replayed, each shows the selection's.
void SelectionIdentityTest::checkViewsFollow()
{
    const RunViewsController &views = m_window->runViews();
    const std::optional<SelectedRun> &selected = m_window->selection().current();
    QVERIFY(selected);
    const RunIdentity want = selected->identity;
    for (const auto &shown : {views.timelineRun(), views.cascadeRun(), views.memoryMapRun()})
        QVERIFY2(!shown || *shown == want, "a view shows another run than the selection");
    QTRY_VERIFY_WITH_TIMEOUT(views.timelineRun() == want && views.cascadeRun() == want && views.memoryMapRun() == want,
                             60000);
    const TimelinePlot &plot = m_window->timeline()->view()->plot();
    QVERIFY(!plot.empty());
    QCOMPARE(runIdentityOf(m_window->sweepModel()->traceHash(), plot.run->request), want);
    const auto &map = m_window->memoryMap()->view()->figure().plot();
    QVERIFY(map);
    QCOMPARE(runIdentityOf(m_window->sweepModel()->traceHash(), map->request), want);
    const std::optional<FeasibilityStrip::Cell> cell = m_window->strip()->selection();
    QVERIFY(cell);
    if (selected->interval)
        QCOMPARE(m_window->sweepModel()->rowIdentity(cell->policy), want.row);
    else
        QCOMPARE(m_window->sweepModel()->identity(cell->policy, cell->column), want);
}

// Rows sum / caching / best fit: a click on best fit, then on sum, then the arrow keys between
// the rows and budgets; every view shows what the selection names. The demo, where its caching
// row fails by fragmentation at 0.90; ResNet-32 at 0.102 (overhead limit 60) where installed.
void SelectionIdentityTest::allocatorRowsShowTheirOwnRuns_data()
{
    QTest::addColumn<QString>("trace");
    QTest::addColumn<SweepParameters>("grid");
    QTest::addColumn<int>("column");
    QTest::newRow("demo") << QStringLiteral(":demo") << allocatorRows("0.8", "1.0", "0.05", "2.0") << 2;
    QTest::newRow("resnet32") << findPublicTrace(QString::fromLatin1(kResNet))
                              << allocatorRows("0.1", "0.104", "0.001", "60") << 2;
}

void SelectionIdentityTest::allocatorRowsShowTheirOwnRuns()
{
    QFETCH(QString, trace);
    QFETCH(SweepParameters, grid);
    QFETCH(int, column);
    if (trace.isEmpty())
        QSKIP("the public ResNet-32 trace is not installed (../shared/traces/dtr-2020, or traces/download-dtr-traces.sh)");
    QVERIFY(openAndSweep(trace, grid));
    const SweepResultModel &sweep = *m_window->sweepModel();
    QCOMPARE(sweep.policyCount(), std::size_t{3});
    QVERIFY(sweep.rowIdentity(0).allocator != sweep.rowIdentity(1).allocator);
    FeasibilityStrip *strip = m_window->strip();
    strip->setFocus();
    const StripGeometry g = strip->cellGeometry();
    QTest::mouseClick(strip, Qt::LeftButton, Qt::NoModifier, g.cell(2, int(column)).center().toPoint());
    QCOMPARE(m_window->selection().current()->identity, sweep.identity(2, std::size_t(column)));
    checkViewsFollow();
    if (QTest::currentTestFailed())
        return;
    QTest::mouseClick(strip, Qt::LeftButton, Qt::NoModifier, g.cell(0, int(column)).center().toPoint());
    QCOMPARE(m_window->selection().current()->identity, sweep.identity(0, std::size_t(column)));
    checkViewsFollow();
    if (QTest::currentTestFailed())
        return;
    for (const Qt::Key key : {Qt::Key_Down, Qt::Key_Down, Qt::Key_Up, Qt::Key_Right, Qt::Key_Up, Qt::Key_Left}) {
        QTest::keyClick(strip, key);
        checkViewsFollow();
        if (QTest::currentTestFailed())
            return;
    }
}

// Mapped with the three allocator rows: each row draws its own model's map, lists its own
// exact holes and quotes its own intervals. The demo around its holes; U-Net over 0.417-0.424
// where installed.
void SelectionIdentityTest::mapsBelongToOneRow_data()
{
    QTest::addColumn<QString>("trace");
    QTest::addColumn<SweepParameters>("grid");
    QTest::newRow("demo") << QStringLiteral(":demo") << allocatorRows("0.33", "0.36", "0.001", "2.0");
    QTest::newRow("unet") << findPublicTrace(QString::fromLatin1(kUNet)) << allocatorRows("0.417", "0.424", "0.001", "2.0");
}

void SelectionIdentityTest::mapsBelongToOneRow()
{
    QFETCH(QString, trace);
    QFETCH(SweepParameters, grid);
    if (trace.isEmpty())
        QSKIP("the public U-Net trace is not installed (../shared/traces/dtr-2020, or traces/download-dtr-traces.sh)");
    QVERIFY(openAndSweep(trace, grid));
    QSignalSpy mapped(m_window.get(), &MainWindow::mapFinished);
    QVERIFY(m_window->startMap());
    QTRY_COMPARE_WITH_TIMEOUT(mapped.count(), 1, 300000);
    QCOMPARE(mapped.first().first().toBool(), false);
    FeasibilityStrip *strip = m_window->strip();
    QCOMPARE(m_window->exactMaps()->rows().size(), std::size_t{3});
    for (std::size_t row = 0; row < 3; ++row) {
        const MappedRow *map = strip->mappedRow(row);
        QVERIFY(map);
        QCOMPARE(m_window->exactMaps()->row(m_window->sweepModel()->request(row, 0)), map);
    }
    // Each exact hole lies in a failing interval of its own row's map.
    const HoleListModel &holes = *m_window->holeModel();
    for (int i = 0; i < holes.rowCount(); ++i) {
        const HoleListModel::Entry &entry = holes.entry(i);
        if (!entry.exact)
            continue;
        const MappedRow *map = strip->mappedRow(entry.policy);
        const auto inside = std::find_if(map->intervals.begin(), map->intervals.end(),
                                         [&](const RunResult &r) { return r.interval.contains(entry.exact->firstFail); });
        QVERIFY(inside != map->intervals.end() && isFailure(inside->outcome));
    }
    const StripGeometry g = strip->cellGeometry();
    for (int row = 0; row < 3; ++row) {
        const QString tip = strip->tooltipAt(g.cell(row, 3).center().toPoint());
        QVERIFY2(tip.contains(QStringLiteral("[")), qPrintable(tip)); // an interval's tooltip gives [lo, hi)
    }
    // Selecting down the rows: each selects an interval of its own map.
    QVERIFY(strip->selectInterval(0, strip->mappedRow(0)->intervals.front().interval.lo));
    checkViewsFollow();
    if (QTest::currentTestFailed())
        return;
    strip->setFocus();
    QTest::keyClick(strip, Qt::Key_Down);
    const std::optional<SelectedRun> &below = m_window->selection().current();
    QVERIFY(below && below->interval);
    QCOMPARE(below->request.config.allocator.kind, m_window->sweepModel()->request(1, 0).config.allocator.kind);
    checkViewsFollow();
    if (QTest::currentTestFailed())
        return;
    checkHolesAreKnown(*m_window);
}

// A map and a sweep cancelled midway: no hole covers a byte not mapped or a cell not run.
void SelectionIdentityTest::cancelledMapAndSweepClaimNoUnknownHole()
{
    const QString trace = findPublicTrace(QString::fromLatin1(kUNet));
    if (trace.isEmpty())
        QSKIP("the public U-Net trace is not installed (../shared/traces/dtr-2020)");
    SweepParameters p = allocatorRows("0.10", "1.00", "0.01", "2.0");
    p.allocators = {QStringLiteral("sum")};
    QVERIFY(openAndSweep(trace, p));
    QSignalSpy mapped(m_window.get(), &MainWindow::mapFinished);
    // Cancelled as soon as the map shows 20 intervals of its 2,205 (U-Net maps them in about a
    // second): a poll could come too late on a fast machine.
    const ExactMapModel *maps = m_window->exactMaps();
    const QMetaObject::Connection cancelling = connect(maps, &ExactMapModel::changed, this, [&] {
        if (!maps->rows().empty() && maps->rows().begin()->second.map->intervals.size() > 20)
            m_window->cancelJobs();
    });
    QVERIFY(m_window->startMap());
    QTRY_COMPARE_WITH_TIMEOUT(mapped.count(), 1, 120000);
    disconnect(cancelling);
    const MappedRow *row = m_window->strip()->mappedRow(0);
    QVERIFY(row && !row->summary.unmapped.empty());
    checkHolesAreKnown(*m_window);

    p.step = QStringLiteral("0.0001");
    p.threads = 1;
    m_window->setSweepParameters(p);
    QSignalSpy swept(m_window.get(), &MainWindow::sweepFinished);
    QVERIFY(m_window->startSweep());
    QTRY_VERIFY_WITH_TIMEOUT(m_window->sweepModel()->finishedCount() > 30, 60000);
    m_window->cancelJobs();
    QTRY_COMPARE_WITH_TIMEOUT(swept.count(), 1, 30000);
    QVERIFY(m_window->sweepModel()->finishedCount() < m_window->sweepModel()->gridSize());
    checkHolesAreKnown(*m_window);
}

QTEST_MAIN(SelectionIdentityTest)
#include "tst_selection_identity.moc"
