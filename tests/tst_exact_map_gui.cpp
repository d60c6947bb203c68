// The exact map in the window and in figures: mapped rows drawn at byte bounds (pixels at known
// budgets), zoom down to bytes with exact byte ticks, hover text, interval selection (the
// timeline replays the interval's lo), Map Exactly (Ctrl+M) with cancel leaving unmapped gaps,
// exact holes in the Holes table, and figure strip --exact.
#include "app/gui/main_window.h"
#include "app/gui/shortcut_table.h"
#include "gui/test_window.h"
#include "core/sweep/sweep_plan.h"
#include "views/figure/figure_style.h"
#include "views/strip/feasibility_strip.h"
#include "views/strip/mapped_row.h"
#include "views/strip/strip_figure.h"
#include "views/tables/exact_map_model.h"
#include "views/tables/hole_list_model.h"
#include "views/tables/sweep_result_model.h"
#include "views/timeline/timeline_panel.h"
#include "views/timeline/timeline_view.h"

#include <QAction>
#include <QBuffer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QImage>
#include <QPainter>
#include <QProcess>
#include <QSvgGenerator>
#include <QTemporaryDir>
#include <QtTest>

#include <set>

using namespace rematlens;

namespace {

// DTR over budgets 100..400 B of a 1000 B baseline, mapped over [100, 401): out of memory up
// to 179, pass 180..249, a three-byte hole 250..252, pass 253..329, the rest unmapped.
struct MappedSweep {
    SweepResultModel sweep;
    HoleListModel holes;
    ExactMapModel maps;
    Baseline baseline{1000, 100, 10, 50, 0};

    MappedSweep()
    {
        std::vector<GridPoint> grid{{"0.1", 0.1}, {"0.2", 0.2}, {"0.3", 0.3}, {"0.4", 0.4}};
        SweepSettings settings;
        settings.policies = {*findPolicy("DTR")};
        std::vector<RunRequest> requests = planSweep(settings, baseline, grid);
        const RunRequest first = requests.front();
        sweep.reset(baseline, grid, std::move(requests), 1, 2.0);
        sweep.addResults({{0, interval(0, 0, Outcome::OutOfMemory)},
                          {1, interval(0, 0, Outcome::Pass)},
                          {2, interval(0, 0, Outcome::Pass)},
                          {3, interval(0, 0, Outcome::Pass)}});
        maps.add(ExactMapModel::keyOf(first), ByteRange{100, 401},
                 {interval(100, 180, Outcome::OutOfMemory), interval(180, 250, Outcome::Pass),
                  interval(250, 253, Outcome::OutOfMemory), interval(253, 330, Outcome::Pass)});
        holes.rebuild(sweep, &maps);
    }
    static RunResult interval(Bytes lo, Bytes hi, Outcome outcome)
    {
        RunResult r;
        r.outcome = outcome;
        r.clock = 150;
        r.evictions = 7;
        r.remats = 3;
        r.maxMemory = lo;
        r.interval = BudgetInterval{lo, hi};
        return r;
    }
};

QColor pixelAtBudget(FeasibilityStrip &strip, double budget)
{
    const QImage image = strip.grab().toImage();
    const StripGeometry g = strip.cellGeometry();
    return image.pixelColor(static_cast<int>(g.xOfBudget(budget)), static_cast<int>(g.cell(0, 0).center().y()));
}

QString svgOf(const StripFigure &figure)
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(QSize(900, 300));
    svg.setViewBox(QRect(0, 0, 900, 300));
    QPainter painter(&svg);
    figure.paintFigure(painter, QRectF(0, 0, 900, 300), FigureStyle{});
    painter.end();
    return QString::fromUtf8(buffer.data());
}

QString runRematlens(const QStringList &arguments, int &status)
{
    QProcess process;
    process.start(QStringLiteral(REMATLENS_BINARY), arguments);
    process.waitForFinished(120000);
    status = process.exitCode();
    return QString::fromUtf8(process.readAllStandardOutput()) + QString::fromUtf8(process.readAllStandardError());
}

} // namespace

class ExactMapGuiTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void mappedRowsDrawAtByteBounds();
    void stripZoomsDownToBytes();
    void hoverNamesTheInterval();
    void clickAndKeysSelectIntervals();
    void holeListShowsExactBytes();
    void mapActionIsInMenusToolbarAndShortcuts();
    void mapExactlySelectsAtLo();
    void cancelledMapLeavesGaps();
    void mapsComeBackWithTheTrace();
    void budgetReadingPolicyIsRefusedByName();
    void allocatorRowsAreMappedEach();
    void figureStripExactDrawsIntervals();

private:
    bool openDemo(const QStringList &policies = {QStringLiteral("DTR")});
    bool mapDemo();

    std::unique_ptr<MainWindow> m_window;
    GuiTestUser m_user;
};

void ExactMapGuiTest::initTestCase()
{
    m_user.setUp();
}

void ExactMapGuiTest::init()
{
    m_user.reset();
}

void ExactMapGuiTest::cleanup()
{
    m_window.reset();
}

// A new window on the demo, swept over 0.3-0.4 (it has holes there).
bool ExactMapGuiTest::openDemo(const QStringList &policies)
{
    m_window = showNewWindow();
    return openAndSweep(*m_window, QStringLiteral(":demo"),
                        sweepGrid(QStringLiteral("0.3"), QStringLiteral("0.4"), QStringLiteral("0.01"), policies));
}

// The demo's window with its DTR row mapped exactly over the sweep's range.
bool ExactMapGuiTest::mapDemo()
{
    if (!openDemo())
        return false;
    QSignalSpy mapped(m_window.get(), &MainWindow::mapFinished);
    return m_window->startMap() && QTest::qWaitFor([&] { return mapped.count() == 1; }, 60000) &&
           !mapped.first().first().toBool();
}

void ExactMapGuiTest::mappedRowsDrawAtByteBounds()
{
    MappedSweep data;
    FeasibilityStrip strip;
    strip.setModels(&data.sweep, &data.holes);
    strip.setExactMaps(&data.maps);
    strip.resize(900, 320);
    const FigureStyle style = FigureStyle::screen(strip.font());
    const StripGeometry g = strip.cellGeometry();
    // Budget b sits where its ratio b / 1000 does on the grid's columns.
    QCOMPARE(g.xOfBudget(200), g.columnCenter(1));
    QVERIFY(std::abs(g.budgetAt(g.xOfBudget(321)) - 321) < 1e-6);
    QCOMPARE(pixelAtBudget(strip, 150), style.outcome(Outcome::OutOfMemory));
    QCOMPARE(pixelAtBudget(strip, 215), style.outcome(Outcome::Pass));
    QCOMPARE(pixelAtBudget(strip, 300), style.outcome(Outcome::Pass));
    // The grid said pass at 0.4; the map never got there: unmapped, the sweep's cell veiled and
    // hatched beneath, not a result of the map.
    const QColor gap = pixelAtBudget(strip, 372);
    const QColor pass = style.outcome(Outcome::Pass);
    QVERIFY2(gap != pass && gap.lightness() > pass.lightness(), qPrintable(gap.name()));
}

void ExactMapGuiTest::stripZoomsDownToBytes()
{
    MappedSweep data;
    FeasibilityStrip strip;
    strip.setModels(&data.sweep, &data.holes);
    strip.setExactMaps(&data.maps);
    strip.resize(900, 320);
    strip.showBudgets(240, 262);
    StripGeometry g = strip.cellGeometry();
    const double byteWidth = g.cellArea().width() / 22;
    QVERIFY(std::abs((g.xOfBudget(251) - g.xOfBudget(250)) - byteWidth) < 1e-6);
    const FigureStyle style = FigureStyle::screen(strip.font());
    QCOMPARE(pixelAtBudget(strip, 249.5), style.outcome(Outcome::Pass));
    QVERIFY(pixelAtBudget(strip, 251.5) != style.outcome(Outcome::Pass)); // the three-byte hole
    QCOMPARE(pixelAtBudget(strip, 253.5), style.outcome(Outcome::Pass));
    // The byte axis on top counts single bytes here.
    StripFigure::Panel panel{QString(), &data.sweep, &data.holes, strip.view().from, strip.view().to};
    panel.maps = &data.maps;
    const QString svg = svgOf(StripFigure({panel}));
    QVERIFY2(svg.contains(QStringLiteral("256 B")), "a tick on a whole byte");
    QVERIFY(!svg.contains(QStringLiteral("0.244 KiB")));

    // The keys zoom down to 8 bytes across, never further; without a map, to one column.
    strip.resetZoom();
    strip.setFocus();
    for (int i = 0; i < 40; ++i)
        QTest::keyClick(&strip, Qt::Key_Plus);
    g = strip.cellGeometry();
    QVERIFY2(std::abs(strip.view().width() * g.bytesPerColumn - 8) < 1e-6,
             qPrintable(QString::number(strip.view().width() * g.bytesPerColumn)));
    QTest::keyClick(&strip, Qt::Key_0);
    QVERIFY(!strip.view().zoomed());
    FeasibilityStrip grid;
    grid.setModels(&data.sweep, &data.holes);
    grid.resize(900, 320);
    for (int i = 0; i < 40; ++i)
        QTest::keyClick(&grid, Qt::Key_Plus);
    QCOMPARE(grid.view().width(), 1.0);
}

void ExactMapGuiTest::hoverNamesTheInterval()
{
    MappedSweep data;
    FeasibilityStrip strip;
    strip.setModels(&data.sweep, &data.holes);
    strip.setExactMaps(&data.maps);
    strip.resize(900, 320);
    const StripGeometry g = strip.cellGeometry();
    const int y = static_cast<int>(g.cell(0, 0).center().y());
    const QString pass = strip.tooltipAt(QPoint(static_cast<int>(g.xOfBudget(215)), y));
    QVERIFY2(pass.contains(QStringLiteral("exact map: budgets [180, 250) B")), qPrintable(pass));
    QVERIFY(!pass.contains(QStringLiteral("swept")));
    QVERIFY(pass.contains(QStringLiteral("width 70 B")));
    QVERIFY(pass.contains(QStringLiteral("ratios 0.1800000000 to 0.2500000000")));
    QVERIFY(pass.contains(QStringLiteral("<b>pass</b>")));
    QVERIFY(pass.contains(QStringLiteral("overhead 1.5000×")));
    QVERIFY(pass.contains(QStringLiteral("7 evictions, 3 remats")));
    QVERIFY(pass.contains(QStringLiteral("peak memory 180 B")));
    const QString gap = strip.tooltipAt(QPoint(static_cast<int>(g.xOfBudget(372)), y));
    QVERIFY2(gap.contains(QStringLiteral("unmapped")) && gap.contains(QStringLiteral("[330, 401) B")), qPrintable(gap));
    // A map with budgets not reached: the legend explains their mark.
    QVERIFY(strip.legendLabels().contains(QStringLiteral("unmapped (not replayed yet)")));
}

void ExactMapGuiTest::clickAndKeysSelectIntervals()
{
    MappedSweep data;
    FeasibilityStrip strip;
    strip.setModels(&data.sweep, &data.holes);
    strip.setExactMaps(&data.maps);
    strip.resize(900, 320);
    strip.show();
    QVERIFY(QTest::qWaitForWindowExposed(&strip));
    QSignalSpy picked(&strip, &FeasibilityStrip::intervalSelected);
    const StripGeometry g = strip.cellGeometry();
    QTest::mouseClick(&strip, Qt::LeftButton, {},
                      QPoint(static_cast<int>(g.xOfBudget(215)), static_cast<int>(g.cell(0, 0).center().y())));
    QCOMPARE(picked.count(), 1);
    QCOMPARE(picked.last().at(1).toLongLong(), 180);
    QCOMPARE(strip.selectedInterval()->lo, Bytes{180});
    QTest::keyClick(&strip, Qt::Key_Right);
    QCOMPARE(picked.last().at(1).toLongLong(), 250);
    QTest::keyClick(&strip, Qt::Key_Left);
    QTest::keyClick(&strip, Qt::Key_Left);
    QCOMPARE(picked.last().at(1).toLongLong(), 100);
}

void ExactMapGuiTest::holeListShowsExactBytes()
{
    MappedSweep data;
    QCOMPARE(data.holes.rowCount(), 1);
    QVERIFY(data.holes.entry(0).exact.has_value());
    const auto cell = [&](int column) { return data.holes.data(data.holes.index(0, column)).toString(); };
    QCOMPARE(cell(HoleListModel::FirstFailColumn), QStringLiteral("250 B"));
    QCOMPARE(cell(HoleListModel::LastFailColumn), QStringLiteral("252 B"));
    QCOMPARE(cell(HoleListModel::WidthColumn), QStringLiteral("3 B"));
    QCOMPARE(cell(HoleListModel::PassBelowColumn), QStringLiteral("249 B"));
    QCOMPARE(cell(HoleListModel::PassAboveColumn), QStringLiteral("253 B"));
}

void ExactMapGuiTest::mapActionIsInMenusToolbarAndShortcuts()
{
    m_window = showNewWindow();
    QAction *map = nullptr;
    int withCtrlM = 0;
    for (QAction *action : m_window->findChildren<QAction *>())
        if (action->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_M)) {
            map = action;
            ++withCtrlM;
        }
    QCOMPARE(withCtrlM, 1); // no clash
    QVERIFY(map->text().remove(QLatin1Char('&')).contains(QStringLiteral("Map Exactly")));
    QVERIFY2(map->associatedObjects().size() >= 2, "in the Sweep menu and on the toolbar");
    bool listed = false;
    const ShortcutTable table(*m_window);
    for (const ShortcutTable::Entry &entry : table.entries())
        listed = listed || (entry.keys == QKeySequence(Qt::CTRL | Qt::Key_M).toString(QKeySequence::NativeText) &&
                            entry.action.contains(QStringLiteral("Map Exactly")));
    QVERIFY(listed);
}

void ExactMapGuiTest::mapExactlySelectsAtLo()
{
    QVERIFY(openDemo());
    QSignalSpy mapped(m_window.get(), &MainWindow::mapFinished);
    QVERIFY(m_window->startMap());
    QTRY_COMPARE_WITH_TIMEOUT(mapped.count(), 1, 60000);
    QCOMPARE(mapped.first().first().toBool(), false);
    const MappedRow *row = m_window->strip()->mappedRow(0);
    QVERIFY(row);
    QVERIFY(row->summary.unmapped.empty());
    QVERIFY(row->intervals.size() > 10);
    // The demo between 0.3 and 0.4 has holes (see the map command's tests): listed in bytes.
    bool exactHole = false;
    for (int i = 0; i < m_window->holeModel()->rowCount(); ++i)
        exactHole = exactHole || m_window->holeModel()->entry(i).exact.has_value();
    QVERIFY(exactHole);

    // An interval in the middle of a pass: the timeline replays its lowest budget.
    const RunResult *pick = nullptr;
    for (const RunResult &r : row->intervals)
        if (r.outcome == Outcome::Pass && r.interval.hi && *r.interval.hi - r.interval.lo > 2 &&
            row->covers(r.interval.lo))
            pick = &r;
    QVERIFY(pick);
    QSignalSpy shown(m_window.get(), &MainWindow::timelineShown);
    QVERIFY(m_window->strip()->selectInterval(0, pick->interval.lo + 1));
    QCOMPARE(m_window->selectedRequest()->config.budget, pick->interval.lo);
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->timeline()->view()->plot().empty() &&
                                 m_window->timeline()->view()->plot().run->request.config.budget == pick->interval.lo,
                             20000);
    QCOMPARE(m_window->timeline()->view()->plot().run->result.clock, pick->clock);
}

void ExactMapGuiTest::cancelledMapLeavesGaps()
{
    QVERIFY(mapDemo());
    SweepParameters p = m_window->sweepParameters();
    p.from = QStringLiteral("0.1");
    p.to = QStringLiteral("1.0");
    p.step = QStringLiteral("0.1");
    p.threads = 1;
    m_window->setSweepParameters(p);
    QSignalSpy swept(m_window.get(), &MainWindow::sweepFinished);
    QVERIFY(m_window->startSweep());
    QTRY_COMPARE_WITH_TIMEOUT(swept.count(), 1, 30000);
    QSignalSpy mapped(m_window.get(), &MainWindow::mapFinished);
    QVERIFY(m_window->startMap());
    m_window->cancelJobs(); // long before a single thread maps 90 MB of budgets
    QTRY_COMPARE_WITH_TIMEOUT(mapped.count(), 1, 60000);
    QCOMPARE(mapped.first().first().toBool(), true);
    const MappedRow *row = m_window->strip()->mappedRow(0);
    QVERIFY(row);
    QVERIFY(!row->summary.unmapped.empty());
    // What was mapped before (0.3 to 0.4) is kept, not thrown away.
    QVERIFY(row->intervalAt(m_window->sweepModel()->request(0, 2).config.budget + 1000));
    // Mapping again walks only the gaps and closes them.
    QVERIFY(m_window->startMap());
    QTRY_COMPARE_WITH_TIMEOUT(mapped.count(), 2, 60000);
    QCOMPARE(mapped.last().first().toBool(), false);
    QVERIFY(m_window->strip()->mappedRow(0)->summary.unmapped.empty());
}

// Another window (a later start of the program) opening the same trace shows the maps at once.
void ExactMapGuiTest::mapsComeBackWithTheTrace()
{
    QVERIFY(mapDemo());
    const QString key = ExactMapModel::keyOf(m_window->sweepModel()->request(0, 0));
    const MappedRow *mapped = m_window->exactMaps()->row(key);
    QVERIFY(mapped);
    MainWindow second;
    QSignalSpy loaded(&second, &MainWindow::traceLoaded);
    second.openTrace(QStringLiteral(":demo"));
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(second.exactMaps()->row(key), 10000); // read and built off the GUI thread
    const MappedRow *back = second.exactMaps()->row(key);
    QCOMPARE(back->summary.range, mapped->summary.range);
    QCOMPARE(back->intervals.size(), mapped->intervals.size());
    QVERIFY(back->summary.unmapped.empty());
    QCOMPARE(back->summary.holes.size(), mapped->summary.holes.size());
    QCOMPARE(back->intervals[back->intervals.size() / 2].interval, mapped->intervals[mapped->intervals.size() / 2].interval);
    QCOMPARE(back->intervals[back->intervals.size() / 2].clock, mapped->intervals[mapped->intervals.size() / 2].clock);
}

void ExactMapGuiTest::budgetReadingPolicyIsRefusedByName()
{
    QVERIFY(mapDemo());
    SweepParameters p = m_window->sweepParameters();
    p.policies = {QStringLiteral("expr:shortfall")};
    p.step = QStringLiteral("0.3");
    m_window->setSweepParameters(p);
    QSignalSpy swept(m_window.get(), &MainWindow::sweepFinished);
    QVERIFY(m_window->startSweep());
    QTRY_COMPARE_WITH_TIMEOUT(swept.count(), 1, 30000);
    QVERIFY(!m_window->exactMaps()->rows().empty()); // the DTR row's map, which must stay
    const std::size_t intervalsBefore = m_window->exactMaps()->rows().size();
    QVERIFY(!m_window->startMap());
    QVERIFY(!m_window->mapRunning());
    QCOMPARE(m_window->exactMaps()->rows().size(), intervalsBefore); // nothing lost
}

// Map Exactly maps the allocator rows too, each under its own model, and draws each row's map:
// the caching and best-fit rows hold the intervals `map --allocator` finds over the same range.
void ExactMapGuiTest::allocatorRowsAreMappedEach()
{
    m_window = showNewWindow();
    SweepParameters p = sweepGrid(QStringLiteral("0.3"), QStringLiteral("0.4"), QStringLiteral("0.01"));
    p.allocators = {QStringLiteral("sum"), QStringLiteral("caching"), QStringLiteral("best-fit")};
    QVERIFY(openAndSweep(*m_window, QStringLiteral(":demo"), p, 120000));
    QSignalSpy mapped(m_window.get(), &MainWindow::mapFinished);
    QVERIFY(m_window->startMap());
    QTRY_COMPARE_WITH_TIMEOUT(mapped.count(), 1, 120000);
    QCOMPARE(mapped.first().first().toBool(), false);
    const SweepResultModel &sweep = *m_window->sweepModel();
    QCOMPARE(sweep.policyCount(), std::size_t{3});
    std::set<std::size_t> sizes;
    for (std::size_t row = 0; row < 3; ++row) {
        const RunRequest &request = sweep.request(row, 0);
        const MappedRow *map = m_window->strip()->mappedRow(row);
        QVERIFY2(map, qPrintable(QStringLiteral("row %1 has no map").arg(row)));
        QCOMPARE(m_window->exactMaps()->row(request), map);
        QVERIFY(map->summary.unmapped.empty());
        sizes.insert(map->intervals.size());
        if (request.config.allocator.isSum())
            continue;
        const QString model = QString::fromStdString(std::string(allocatorKindName(request.config.allocator.kind)));
        int status = -1;
        const QString json = runRematlens({QStringLiteral("map"), QStringLiteral(":demo"), QStringLiteral("--from"),
                                           p.from, QStringLiteral("--to"), p.to, QStringLiteral("--allocator"), model,
                                           QStringLiteral("--json")},
                                          status);
        QCOMPARE(status, 0);
        const QJsonObject cli =
            QJsonDocument::fromJson(json.toUtf8()).object()[QStringLiteral("maps")].toArray()[0].toObject();
        QCOMPARE(cli[QStringLiteral("allocator")].toString(), model);
        QCOMPARE(static_cast<std::size_t>(cli[QStringLiteral("intervals")].toInteger()), map->intervals.size());
        QCOMPARE(static_cast<std::size_t>(cli[QStringLiteral("holes")].toArray().size()), map->summary.holes.size());
    }
    QVERIFY2(sizes.size() > 1, "every model's row holds the same number of intervals: one map drawn thrice?");
}

void ExactMapGuiTest::figureStripExactDrawsIntervals()
{
    // The demo's edge at 35,356,964 B: DTR passes below, runs out of memory from there (a hole).
    // 16 bytes around it fall inside one grid cell; only the map tells them apart.
    const QString exact = m_user.filePath(QStringLiteral("exact.png"));
    const QString grid = m_user.filePath(QStringLiteral("grid.png"));
    const QStringList common{QStringLiteral("figure"), QStringLiteral("strip"), QStringLiteral(":demo"),
                             QStringLiteral("--from"), QStringLiteral("0.34"), QStringLiteral("--to"),
                             QStringLiteral("0.36"), QStringLiteral("--step"), QStringLiteral("0.01"),
                             QStringLiteral("--zoom-from-bytes"), QStringLiteral("35356956"),
                             QStringLiteral("--zoom-to-bytes"), QStringLiteral("35356972"),
                             QStringLiteral("--dpi"), QStringLiteral("100")};
    int status = 0;
    QString output = runRematlens(common + QStringList{QStringLiteral("--exact"), QStringLiteral("--out"), exact}, status);
    QVERIFY2(status == 0, qPrintable(output));
    output = runRematlens(common + QStringList{QStringLiteral("--out"), grid}, status);
    QVERIFY2(status == 0, qPrintable(output));
    const FigureStyle style;
    const auto columnHas = [](const QImage &image, double share, const QColor &colour) {
        const int x = static_cast<int>(share * image.width());
        for (int y = 0; y < image.height(); ++y)
            if (image.pixelColor(x, y) == colour)
                return true;
        return false;
    };
    const QImage mapped(exact);
    QVERIFY(!mapped.isNull());
    QVERIFY(columnHas(mapped, 0.3, style.outcome(Outcome::Pass)));
    QVERIFY(!columnHas(mapped, 0.3, style.outcome(Outcome::OutOfMemory)));
    QVERIFY(columnHas(mapped, 0.8, style.outcome(Outcome::OutOfMemory)));
    QVERIFY(!columnHas(mapped, 0.8, style.outcome(Outcome::Pass)));
    const QImage cells(grid);
    QCOMPARE(columnHas(cells, 0.3, style.outcome(Outcome::Pass)), columnHas(cells, 0.8, style.outcome(Outcome::Pass)));

    output = runRematlens({QStringLiteral("figure"), QStringLiteral("strip"), QStringLiteral(":demo"),
                        QStringLiteral("--sweep-file"), exact, QStringLiteral("--exact"), QStringLiteral("--out"), grid},
                       status);
    QVERIFY(status != 0);
}

QTEST_MAIN(ExactMapGuiTest)
#include "tst_exact_map_gui.moc"
