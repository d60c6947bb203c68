// The surfaces that report on the strip say what it holds, after every change of it: swept again
// at another overhead limit, with other allocator rows, reopened from a partial map of an earlier
// session beside the atlas's map of another row. After each, the status bar's hole count is the
// Holes table's (and the command line's), the Hole anatomy dock tells only a hole the table
// lists (and names its row), and the map source the status bar names is the map drawn.
#include "gui/demo_atlas.h"
#include "gui/test_window.h"

#include "app/gui/hole_anatomy_coordinator.h"
#include "app/gui/hole_anatomy_panel.h"
#include "app/gui/map_cache.h"
#include "app/gui/map_coordinator.h"
#include "app/gui/strip_status.h"
#include "views/common/number_format.h"
#include "views/common/run_selection.h"
#include "views/strip/feasibility_strip.h"
#include "views/strip/strip_geometry.h"
#include "views/strip/mapped_row.h"
#include "views/tables/exact_map_model.h"
#include "views/tables/hole_list_model.h"
#include "views/tables/sweep_result_model.h"

#include <QDir>
#include <QImage>
#include <QPainter>
#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QStatusBar>
#include <QTableView>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <set>

using namespace rematlens;

namespace {

// How many holes `rematlens holes` finds on the demo over 0.30-0.40 at 0.001.
int holesByTheCommandLine(const QString &limit, const QString &allocator = QStringLiteral("sum"))
{
    QProcess process;
    process.start(QStringLiteral(REMATLENS_BINARY),
                  {QStringLiteral("holes"), QStringLiteral(":demo"), QStringLiteral("--from"), QStringLiteral("0.30"),
                   QStringLiteral("--to"), QStringLiteral("0.40"), QStringLiteral("--step"), QStringLiteral("0.001"),
                   QStringLiteral("--overhead-limit"), limit, QStringLiteral("--allocator"), allocator,
                   QStringLiteral("--json")});
    if (!process.waitForFinished(60000) || process.exitCode() != 0)
        return -1;
    const nlohmann::json report = nlohmann::json::parse(process.readAllStandardOutput().toStdString(), nullptr, false);
    if (!report.is_object() || !report.contains("holes"))
        return -1;
    return static_cast<int>(report["holes"].size());
}

SweepParameters demoHoles(const QString &limit, const QStringList &allocators = {QStringLiteral("sum")})
{
    SweepParameters p = sweepGrid(QStringLiteral("0.30"), QStringLiteral("0.40"), QStringLiteral("0.001"));
    p.overheadLimit = limit;
    p.allocators = allocators;
    return p;
}

} // namespace

class StripSurfacesTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void sweptAgainAtAnotherLimit();
    void otherAllocatorRowsTellNoForeignHole();
    void mapSourceNamedIsTheMapDrawn();
    void readingKnownMapsIsSaid();
    void longRowNamesLeaveRoomAt1024();
    void mapCacheRecordsCarryTheirRow();
    void twoWindowsMapATraceOnce();
    void stripOnScreenIsItsFigureNow();

private:
    // The strip as the screen shows it (its cached figure) is what painting it afresh gives.
    void stripShowsItsFigure(const char *after);
    bool sweepAgain(const SweepParameters &parameters);
    bool explainHole(int row);
    // The status bar, the Holes table and the command line count the same holes.
    void holeCountsAgree(int expected);
    void dockTellsNoHole();
    QString makeAtlas();

    GuiTestUser m_user;
    std::unique_ptr<MainWindow> m_window;
};

void StripSurfacesTest::initTestCase()
{
    m_user.setUp(QStringLiteral("RematLensSurfacesTest"));
}

void StripSurfacesTest::init()
{
    m_user.reset();
    qputenv("REMATLENS_ATLAS_DIR", m_user.filePath(QStringLiteral("no-atlas")).toUtf8());
    m_window = showNewWindow(QSize(1024, 700));
}

void StripSurfacesTest::cleanup()
{
    m_window.reset();
}

bool StripSurfacesTest::sweepAgain(const SweepParameters &parameters)
{
    QSignalSpy finished(m_window.get(), &MainWindow::sweepFinished);
    m_window->setSweepParameters(parameters);
    return m_window->startSweep() && QTest::qWaitFor([&] { return finished.count() == 1; }, 60000);
}

// A click on the hole's row of the Holes table, and its story told.
bool StripSurfacesTest::explainHole(int row)
{
    QTableView *table = m_window->holeView();
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(m_window->holeModel()->index(row, 0)).center());
    return QTest::qWaitFor([this] { return m_window->holeStories().answer() && !m_window->holeAnatomyBusy(); }, 120000);
}

void StripSurfacesTest::holeCountsAgree(int expected)
{
    QCOMPARE(m_window->holeModel()->rowCount(), expected);
    QCOMPARE(m_window->stripStatus().holesText(), countOf(expected, QStringLiteral("hole"), QStringLiteral("holes")));
    auto *field = m_window->statusBar()->findChild<QLabel *>(QStringLiteral("holesStatus"));
    QVERIFY(field && field->isVisible());
    QCOMPARE(field->text(), m_window->stripStatus().holesText());
    // The line about the last sweep says how it went, and counts no holes that may change.
    QVERIFY(!m_window->statusBar()->findChild<QLabel *>(QStringLiteral("jobStatus"))->text().contains(QStringLiteral("hole")));
}

void StripSurfacesTest::dockTellsNoHole()
{
    QVERIFY(!m_window->holeStories().shownHole());
    QVERIFY(!m_window->holeStories().answer());
    QVERIFY(m_window->holeAnatomy()->storyText().isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->holeAnatomyBusy(), 10000); // a story being told is cancelled
}

// U-Net's story of the limit-2 hole stayed after sweeping at 1.3: here the demo's.
void StripSurfacesTest::sweptAgainAtAnotherLimit()
{
    QVERIFY(openAndSweep(*m_window, QStringLiteral(":demo"), demoHoles(QStringLiteral("2"))));
    holeCountsAgree(holesByTheCommandLine(QStringLiteral("2")));
    QCOMPARE(m_window->holeModel()->rowCount(), 3);
    QVERIFY(explainHole(0));
    QVERIFY2(m_window->holeAnatomy()->findChild<QLabel *>()->text().contains(QStringLiteral("overhead limit 2")),
             qPrintable(m_window->holeAnatomy()->findChild<QLabel *>()->text()));

    QVERIFY(sweepAgain(demoHoles(QStringLiteral("1.3"))));
    holeCountsAgree(holesByTheCommandLine(QStringLiteral("1.3")));
    QCOMPARE(m_window->holeModel()->rowCount(), 0);
    dockTellsNoHole();
    QVERIFY2(m_window->holeAnatomy()->statusText().contains(QStringLiteral("not in the Holes table any more")),
             qPrintable(m_window->holeAnatomy()->statusText()));

    QVERIFY(sweepAgain(demoHoles(QStringLiteral("2.5"))));
    holeCountsAgree(holesByTheCommandLine(QStringLiteral("2.5")));
    QCOMPARE(m_window->holeModel()->rowCount(), 2);
    QVERIFY(explainHole(1));
    const QString title = m_window->holeAnatomy()->findChild<QLabel *>()->text();
    QVERIFY2(title.contains(QStringLiteral("overhead limit 2.5")) && title.contains(QStringLiteral("sum")), qPrintable(title));
}

// ResNet-32's best-fit hole stayed told while a caching run was selected: here the demo's sum
// hole while the caching row is selected, and after the sum row is swept away.
void StripSurfacesTest::otherAllocatorRowsTellNoForeignHole()
{
    QVERIFY(openAndSweep(*m_window, QStringLiteral(":demo"),
                         demoHoles(QStringLiteral("2"), {QStringLiteral("sum"), QStringLiteral("caching")})));
    const int sum = holesByTheCommandLine(QStringLiteral("2"));
    const int caching = holesByTheCommandLine(QStringLiteral("2"), QStringLiteral("caching"));
    holeCountsAgree(sum + caching);
    QVERIFY(explainHole(0));
    const SweepResultModel &sweep = *m_window->sweepModel();
    QCOMPARE(m_window->holeStories().shownHole()->row, sweep.rowIdentity(0));

    // A run of the other row: the panel tells no hole of a row that is not selected.
    m_window->strip()->setSelection(FeasibilityStrip::Cell{1, sweep.gridSize() - 1});
    QCOMPARE(m_window->selection().current()->identity.row, sweep.rowIdentity(1));
    dockTellsNoHole();
    // A run of the hole's own row beside it keeps it told.
    QVERIFY(explainHole(0));
    m_window->strip()->setSelection(FeasibilityStrip::Cell{0, sweep.gridSize() - 1});
    QVERIFY(m_window->holeStories().shownHole());

    QVERIFY(sweepAgain(demoHoles(QStringLiteral("2"), {QStringLiteral("caching")})));
    holeCountsAgree(caching);
    dockTellsNoHole();
}

// The demo mapped over 0.10-1.00 at overhead limit 2, as an atlas of one file.
QString StripSurfacesTest::makeAtlas()
{
    const QString atlas = m_user.filePath(QStringLiteral("atlas"));
    QDir().mkpath(atlas);
    const QString plain = m_user.filePath(QStringLiteral("demo-map.jsonl"));
    QFile::remove(plain);
    if (const QString error = mapDemo(QStringLiteral("0.10"), QStringLiteral("1.00"), plain); !error.isEmpty()) {
        qWarning("%s", qPrintable(error));
        return {};
    }
    QFile file(plain);
    if (!file.open(QIODevice::ReadOnly) || !writeGzip(atlas + QStringLiteral("/demo.jsonl.gz"), file.readAll()))
        return {};
    return atlas;
}

// The atlas has limit 2's map; a sweep at 2.5 draws none and names none; a map made at 2.5 is
// named as this window's, and after a reopen as an earlier session's, beside the atlas's at 2.
void StripSurfacesTest::mapSourceNamedIsTheMapDrawn()
{
    const QString atlas = makeAtlas();
    QVERIFY(!atlas.isEmpty());
    qputenv("REMATLENS_ATLAS_DIR", atlas.toUtf8());
    MapCoordinator *maps = m_window->findChild<MapCoordinator *>();
    const auto settled = [&] { return QTest::qWaitFor([&] { return !maps->settling(); }, 30000); };
    SweepParameters whole = sweepGrid(QStringLiteral("0.10"), QStringLiteral("1.00"), QStringLiteral("0.05"));
    QVERIFY(openAndSweep(*m_window, QStringLiteral(":demo"), whole));
    QVERIFY(settled());
    const MappedRow *drawn = m_window->strip()->mappedRow(0);
    QVERIFY(drawn && drawn->summary.unmapped.empty());
    QCOMPARE(m_window->stripStatus().mapsText(), QStringLiteral("DTR: map 0.10–1.00, complete, from the atlas (demo.jsonl.gz)"));
    holeCountsAgree(int(drawn->summary.holes.size()));
    const FeasibilityStrip &strip = *m_window->strip();
    QVERIFY2(!strip.legendLabels().join(QLatin1Char('|')).contains(QStringLiteral("unmapped")),
             "a complete map has no unmapped budgets for the legend to explain");

    whole.overheadLimit = QStringLiteral("2.5");
    QVERIFY(sweepAgain(whole));
    QVERIFY(!m_window->strip()->mappedRow(0));
    QCOMPARE(m_window->stripStatus().mapsText(), QString());
    QVERIFY(m_window->statusBar()->findChild<QLabel *>(QStringLiteral("mapsStatus"))->isHidden());
    holeCountsAgree(int(m_window->holeModel()->reports().front().holes.size()));

    SweepParameters part = sweepGrid(QStringLiteral("0.30"), QStringLiteral("0.40"), QStringLiteral("0.05"));
    part.overheadLimit = QStringLiteral("2.5");
    QVERIFY(sweepAgain(part));
    QSignalSpy mapped(m_window.get(), &MainWindow::mapFinished);
    QVERIFY(m_window->startMap());
    QTRY_COMPARE_WITH_TIMEOUT(mapped.count(), 1, 60000);
    QCOMPARE(m_window->stripStatus().mapsText(), QStringLiteral("DTR: map 0.30–0.40, complete, from this window"));
    holeCountsAgree(int(m_window->strip()->mappedRow(0)->summary.holes.size()));

    // Another start of the program, sweeping 0.10-1.00 at 2.5: the earlier session's map of
    // 0.30-0.40 is drawn and named; the atlas's (limit 2) is neither.
    m_window = showNewWindow(QSize(1024, 700));
    maps = m_window->findChild<MapCoordinator *>();
    whole.overheadLimit = QStringLiteral("2.5");
    QVERIFY(openAndSweep(*m_window, QStringLiteral(":demo"), whole));
    QVERIFY(settled());
    drawn = m_window->strip()->mappedRow(0);
    QVERIFY(drawn);
    const double memory = double(m_window->sweepModel()->baseline().memory);
    QCOMPARE(QString::number(double(drawn->summary.range.from) / memory, 'f', 2), QStringLiteral("0.30"));
    QCOMPARE(m_window->stripStatus().mapsText(), QStringLiteral("DTR: map 0.30–0.40, complete, from earlier sessions"));
    whole.overheadLimit = QStringLiteral("2");
    QVERIFY(sweepAgain(whole));
    QCOMPARE(m_window->stripStatus().mapsText(), QStringLiteral("DTR: map 0.10–1.00, complete, from the atlas (demo.jsonl.gz)"));
}

// While a trace's known maps are read the maps field says so (rows drawn as swept meanwhile
// may be mapped a moment later), and names the maps once they are shown.
void StripSurfacesTest::readingKnownMapsIsSaid()
{
    const QString atlas = makeAtlas();
    QVERIFY(!atlas.isEmpty());
    qputenv("REMATLENS_ATLAS_DIR", atlas.toUtf8());
    MapCoordinator *maps = m_window->findChild<MapCoordinator *>();
    const QLabel *field = m_window->statusBar()->findChild<QLabel *>(QStringLiteral("mapsStatus"));
    QStringList whileReading;
    connect(maps, &MapCoordinator::readingKnownMaps, this, [&] { whileReading << field->text(); });
    const SweepParameters whole = sweepGrid(QStringLiteral("0.10"), QStringLiteral("1.00"), QStringLiteral("0.05"));
    QVERIFY(openAndSweep(*m_window, QStringLiteral(":demo"), whole));
    QVERIFY(QTest::qWaitFor([&] { return !maps->settling(); }, 30000));
    QVERIFY(!whileReading.isEmpty());
    for (const QString &text : whileReading)
        QVERIFY2(text.startsWith(QStringLiteral("Reading known maps…")), qPrintable(text));
    QTRY_COMPARE(field->text(), QStringLiteral("DTR: map 0.10–1.00, complete, from the atlas (demo.jsonl.gz)"));
    QVERIFY(!field->isHidden());
}

// At 1024 x 700 long row names ("RandomStorage · seed 1 · caching") are elided: the strip's
// labels take at most a quarter of its width, and the Holes table shows each hole's first
// failing budget beside its row's name (the tooltip names it in full).
void StripSurfacesTest::longRowNamesLeaveRoomAt1024()
{
    SweepParameters p = sweepGrid(QStringLiteral("0.10"), QStringLiteral("1.00"), QStringLiteral("0.01"));
    p.allocators = {QStringLiteral("sum"), QStringLiteral("caching")};
    p.policies = {QStringLiteral("RandomStorage:seed=1"), QStringLiteral("DTR")};
    QVERIFY(openAndSweep(*m_window, QStringLiteral(":demo"), p));
    QTableView *table = m_window->holeView();
    QVERIFY(m_window->holeModel()->rowCount() > 0);
    const QAbstractItemModel &holes = *m_window->holeModel();
    int longest = 0;
    for (int row = 0; row < holes.rowCount(); ++row)
        longest = std::max(longest, table->fontMetrics().horizontalAdvance(holes.index(row, 0).data().toString()));
    QVERIFY2(longest > table->columnWidth(0), "a row name longer than the column, for this test to elide");
    const int fromRight = table->columnViewportPosition(1) + table->columnWidth(1);
    QVERIFY2(fromRight <= table->viewport()->width(),
             qPrintable(QStringLiteral("From ends at %1 of %2 px").arg(fromRight).arg(table->viewport()->width())));
    const StripGeometry g = m_window->strip()->cellGeometry();
    QVERIFY(g.labelWidth <= 0.25 * g.bounds.width() + 1);
    QString name;
    for (std::size_t row = 0; row < m_window->sweepModel()->policyCount(); ++row)
        if (m_window->sweepModel()->policyName(row).size() > name.size())
            name = m_window->sweepModel()->policyName(row);
    QVERIFY2(m_window->strip()->fontMetrics().horizontalAdvance(name) > g.labelWidth,
             qPrintable(QStringLiteral("%1 within %2 of %3 px").arg(name).arg(g.labelWidth).arg(g.bounds.width())));
    for (int row = 0; row < g.rows; ++row) // the label's tooltip names the row in full
        QCOMPARE(m_window->strip()->tooltipAt(QPoint(int(g.bounds.left() + 2), int(g.rowRect(row).center().y()))),
                 m_window->sweepModel()->policyName(std::size_t(row)));
}

// Records of the user's map cache name their row as `map --out` would: overhead limit 2.5 under
// the key of limit 2.5, the trace and the policy.
void StripSurfacesTest::mapCacheRecordsCarryTheirRow()
{
    SweepParameters p = sweepGrid(QStringLiteral("0.30"), QStringLiteral("0.40"), QStringLiteral("0.05"));
    p.overheadLimit = QStringLiteral("2.5");
    QVERIFY(openAndSweep(*m_window, QStringLiteral(":demo"), p));
    QSignalSpy mapped(m_window.get(), &MainWindow::mapFinished);
    QVERIFY(m_window->startMap());
    QTRY_COMPARE_WITH_TIMEOUT(mapped.count(), 1, 60000);
    QFile cache(MapCache::pathOf(m_window->traceHash()));
    QVERIFY(cache.open(QIODevice::ReadOnly));
    int intervals = 0;
    for (const QByteArray &line : cache.readAll().split('\n')) {
        const nlohmann::json record = nlohmann::json::parse(line.toStdString(), nullptr, false);
        if (!record.is_object() || !record.contains("interval"))
            continue;
        const nlohmann::json &interval = record["interval"];
        QCOMPARE(interval["overhead_limit"].get<double>(), 2.5);
        QCOMPARE(interval["heuristic"].get<std::string>(), std::string("DTR"));
        QCOMPARE(QString::fromStdString(interval["trace"].get<std::string>()), m_window->traceName());
        QVERIFY(QString::fromStdString(record["key"].get<std::string>()).contains(QStringLiteral("2.5")));
        ++intervals;
    }
    QCOMPARE(intervals, int(m_window->strip()->mappedRow(0)->intervals.size()));
}

// Two windows on one trace: while one maps a row the other does not walk it too; mapping it
// afterwards reads the first window's intervals and replays nothing, and the cache holds each
// interval once.
void StripSurfacesTest::twoWindowsMapATraceOnce()
{
    SweepParameters whole = sweepGrid(QStringLiteral("0.10"), QStringLiteral("1.00"), QStringLiteral("0.05"));
    whole.threads = 1;
    QVERIFY(openAndSweep(*m_window, QStringLiteral(":demo"), whole));
    std::unique_ptr<MainWindow> other = showNewWindow(QSize(1024, 700));
    QVERIFY(openAndSweep(*other, QStringLiteral(":demo"), whole));
    QVERIFY(QTest::qWaitFor([&] { return !m_window->knownMapsPending() && !other->knownMapsPending(); }, 30000));

    QSignalSpy firstDone(m_window.get(), &MainWindow::mapFinished);
    QVERIFY(m_window->startMap());
    // The second window reads what the first wrote so far, then finds its only row being mapped.
    QSignalSpy secondTried(other.get(), &MainWindow::mapFinished);
    QVERIFY(other->startMap());
    QTRY_COMPARE_WITH_TIMEOUT(secondTried.count(), 1, 30000);
    QCOMPARE(secondTried.first().first().toBool(), true); // nothing walked
    const QString said = other->statusBar()->findChild<QLabel *>(QStringLiteral("jobStatus"))->text();
    QVERIFY2(said.contains(QStringLiteral("another RematLens window is mapping it")), qPrintable(said));
    QVERIFY(m_window->mapRunning());
    QTRY_COMPARE_WITH_TIMEOUT(firstDone.count(), 1, 60000);
    QCOMPARE(firstDone.first().first().toBool(), false);

    QSignalSpy secondDone(other.get(), &MainWindow::mapFinished);
    QVERIFY(other->startMap());
    QTRY_COMPARE_WITH_TIMEOUT(secondDone.count(), 1, 60000);
    QCOMPARE(other->findChild<MapCoordinator *>()->lastReplays(), std::size_t{0});
    const MappedRow *mine = m_window->strip()->mappedRow(0);
    const MappedRow *theirs = other->strip()->mappedRow(0);
    QVERIFY(mine && theirs && theirs->summary.unmapped.empty());
    QCOMPARE(theirs->intervals.size(), mine->intervals.size());
    // It walked nothing: its map is the earlier session's alone.
    QCOMPARE(other->stripStatus().mapsText(), QStringLiteral("DTR: map 0.10–1.00, complete, from earlier sessions"));

    QFile cache(MapCache::pathOf(m_window->traceHash()));
    QVERIFY(cache.open(QIODevice::ReadOnly));
    std::set<std::pair<Bytes, Bytes>> seen;
    int records = 0;
    for (const QByteArray &line : cache.readAll().split('\n')) {
        const nlohmann::json record = nlohmann::json::parse(line.toStdString(), nullptr, false);
        if (!record.is_object() || !record.contains("interval"))
            continue;
        ++records;
        seen.insert({record["interval"]["lo"].get<Bytes>(), record["interval"]["hi"].is_null() ? -1 : record["interval"]["hi"].get<Bytes>()});
    }
    QCOMPARE(records, int(seen.size()));
    QCOMPARE(records, int(mine->intervals.size()));
}


void StripSurfacesTest::stripShowsItsFigure(const char *after)
{
    FeasibilityStrip *strip = m_window->strip();
    QImage fresh(strip->size() * strip->devicePixelRatio(), QImage::Format_RGB32);
    fresh.setDevicePixelRatio(strip->devicePixelRatio());
    {
        QPainter painter(&fresh);
        strip->paint(painter, strip->rect());
    }
    const QImage shown = strip->grab().toImage().convertToFormat(QImage::Format_RGB32);
    QVERIFY2(shown == fresh, after);
}

// The strip keeps its figure as a picture so that a selection repaints alone: after each change
// of what it shows, what is on screen is that change.
void StripSurfacesTest::stripOnScreenIsItsFigureNow()
{
    QVERIFY(openAndSweep(*m_window, QStringLiteral(":demo"), demoHoles(QStringLiteral("2"))));
    FeasibilityStrip *strip = m_window->strip();
    stripShowsItsFigure("the sweep");
    const QImage limit2 = strip->grab().toImage();
    QVERIFY(sweepAgain(demoHoles(QStringLiteral("1.3"))));
    stripShowsItsFigure("another overhead limit");
    QVERIFY(strip->grab().toImage() != limit2);
    strip->setSelection(FeasibilityStrip::Cell{0, 40});
    stripShowsItsFigure("a selection");
    strip->showColumns(20, 60);
    stripShowsItsFigure("a zoom");
    QFont larger = strip->font();
    larger.setPointSizeF(larger.pointSizeF() * 1.5);
    strip->setFont(larger);
    stripShowsItsFigure("a larger font");
    m_window->resize(1200, 760);
    QTRY_VERIFY(strip->width() > 0);
    stripShowsItsFigure("a resize");
}

QTEST_MAIN(StripSurfacesTest)
#include "tst_strip_surfaces.moc"
