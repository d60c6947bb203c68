// The main window offscreen: the demo trace loads and sweeps; clicks and arrow keys on the
// strip select runs; a sweep can be cancelled and restarted; a bad trace changes nothing;
// the --screenshot option writes a PNG of the whole window.
#include "app/gui/gui_startup_job.h"
#include "app/gui/inspected_run_cache.h"
#include "app/gui/run_inspector.h"
#include "app/gui/shortcut_table.h"
#include "app/gui/main_window.h"
#include "app/gui/sweep_cache.h"
#include "gui/test_window.h"
#include "core/sim/baseline.h"
#include "core/trace/trace_reader.h"
#include "views/cascade/cascade_view.h"
#include "views/memory/memory_map_panel.h"
#include "core/analysis/memory_snapshot_at.h"
#include "views/common/run_selection.h"
#include "views/strip/feasibility_strip.h"
#include "views/strip/strip_geometry.h"
#include "views/tables/schedule_rows_model.h"
#include "views/tables/sweep_result_model.h"
#include "views/timeline/timeline_panel.h"

#include <QAction>
#include <QChart>
#include <QClipboard>
#include <QDockWidget>
#include <QImage>
#include <QMenu>
#include <QMenuBar>
#include <QProcess>
#include <QSet>
#include <QTableView>
#include <QTemporaryDir>
#include <QWheelEvent>
#include <QtTest>

using namespace rematlens;

namespace {

SweepParameters demoGrid()
{
    return sweepGrid(QStringLiteral("0.2"), QStringLiteral("1.0"), QStringLiteral("0.01"),
                     {QStringLiteral("DTR"), QStringLiteral("LRU")});
}

} // namespace

class MainWindowTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void demoLoadsAndSweeps();
    void clicksAndKeysSelect();
    void timelineFollowsSelection();
    void recordedRunsAreKeptAndPrefetched();
    void inspectedRunCacheKeepsTheRecent();
    void cascadeFollowsSelectionAndRerunsKeeping();
    void selectionIsCoherent();
    void stripZoomsAndPans();
    void reopenedTraceShowsItsStripAtOnce();
    void cancelAndRestart();
    void customPoliciesAreRows();
    void windowClosedMidSweepResumes();
    void badTraceKeepsWhatWasThere();
    void screenshotWritesPng();
    void startupOptionsApplyWithoutScreenshot();
    void holesTableCopiesWithCtrlC();
    void holesTableArrowsMoveBetweenHoles();
    void memoryMapFollowsSelectionAndTimeline();
    void viewMenuNamesEachPartOnce();

private:
    bool openDemo() { return openAndSweep(*m_window, QStringLiteral(":demo"), demoGrid()); }

    std::unique_ptr<MainWindow> m_window;
    GuiTestUser m_user;
};

void MainWindowTest::initTestCase()
{
    m_user.setUp();
}

void MainWindowTest::init()
{
    m_user.reset();
    m_window = showNewWindow();
}

void MainWindowTest::cleanup()
{
    m_window.reset();
}

void MainWindowTest::demoLoadsAndSweeps()
{
    m_window->setSweepParameters(demoGrid());
    QSignalSpy loaded(m_window.get(), &MainWindow::traceLoaded);
    QSignalSpy finished(m_window.get(), &MainWindow::sweepFinished);
    m_window->openTrace(QStringLiteral(":demo"));
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
    QCOMPARE(finished.first().first().toBool(), false);
    QCOMPARE(m_window->sweepModel()->rowCount(), 2 * 81);
    QCOMPARE(m_window->sweepModel()->finishedCount(), std::size_t{2 * 81});
    QVERIFY(m_window->windowTitle().contains(QStringLiteral("RematLens")));
}

void MainWindowTest::clicksAndKeysSelect()
{
    QVERIFY(openDemo());
    FeasibilityStrip *strip = m_window->strip();
    QSignalSpy selected(strip, &FeasibilityStrip::selectionChanged);
    const StripGeometry g = strip->cellGeometry();
    QCOMPARE(g.columns, static_cast<int>(m_window->sweepModel()->gridSize()));
    QCOMPARE(g.rows, static_cast<int>(m_window->sweepModel()->policyCount()));
    const QPoint target = g.cell(1, 10).center().toPoint();
    QTest::mouseClick(strip, Qt::LeftButton, Qt::NoModifier, target);
    QCOMPARE(selected.count(), 1);
    QCOMPARE(strip->selection()->policy, std::size_t{1});
    QCOMPARE(strip->selection()->column, std::size_t{10});
    strip->setFocus();
    QTest::keyClick(strip, Qt::Key_Right);
    QCOMPARE(strip->selection()->column, std::size_t{11});
    QTest::keyClick(strip, Qt::Key_Up);
    QCOMPARE(strip->selection()->policy, std::size_t{0});
    QTest::keyClick(strip, Qt::Key_End);
    QCOMPARE(strip->selection()->column, m_window->sweepModel()->gridSize() - 1);
    QTest::keyClick(strip, Qt::Key_Left);
    QCOMPARE(strip->selection()->column, m_window->sweepModel()->gridSize() - 2);
    QCOMPARE(selected.count(), 5);
}

void MainWindowTest::timelineFollowsSelection()
{
    QVERIFY(openDemo());
    TimelinePanel *timeline = m_window->timeline();
    timeline->setOverlay(TimelinePanel::Overlay::BudgetBelow);
    QSignalSpy shown(m_window.get(), &MainWindow::timelineShown);
    m_window->strip()->setSelection(FeasibilityStrip::Cell{0, 20});
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(!timeline->view()->plot().empty(), 10000);
    const TimelinePlot &plot = timeline->view()->plot();
    const RunRequest &selected = m_window->sweepModel()->request(0, 20);
    QCOMPARE(plot.run->request.config.budget, selected.config.budget);
    QCOMPARE(plot.run->request.config.policy.name, selected.config.policy.name);
    QVERIFY(plot.comparison);
    QCOMPARE(plot.comparison->request.config.budget, m_window->sweepModel()->request(0, 19).config.budget);
    QCOMPARE(plot.run->result.clock, m_window->sweepModel()->result(0, 20)->clock);

    m_window->strip()->setFocus();
    QTest::keyClick(m_window->strip(), Qt::Key_Right);
    // Until the new run is drawn the timeline shows nothing, never the run before.
    QTRY_VERIFY_WITH_TIMEOUT(!timeline->view()->plot().empty() &&
                                 timeline->view()->plot().run->request.config.budget ==
                                     m_window->sweepModel()->request(0, 21).config.budget,
                             10000);
    QVERIFY(timeline->statusText().contains(QStringLiteral("over")));
    timeline->setOverlay(TimelinePanel::Overlay::None);
}

// The cascade shows the selected failing run; its "keep resident and rerun" replays the run with
// that storage kept, and the timeline and the cascade then show the new run.
void MainWindowTest::cascadeFollowsSelectionAndRerunsKeeping()
{
    QVERIFY(openDemo());
    const SweepResultModel *sweep = m_window->sweepModel();
    std::optional<std::size_t> failing;
    for (std::size_t column = sweep->gridSize(); column-- > 0 && !failing;)
        if (sweep->result(0, column) && sweep->result(0, column)->outcome == Outcome::OutOfMemory &&
            sweep->result(0, column)->remats > 0)
            failing = column;
    QVERIFY(failing);
    QSignalSpy shown(m_window.get(), &MainWindow::timelineShown);
    m_window->strip()->setSelection(FeasibilityStrip::Cell{0, *failing});
    CascadeView *cascade = m_window->cascade();
    // The diagram is redrawn as runs arrive: between two, its cascade may have no nodes yet.
    const auto endsInFailure = [cascade] {
        const std::vector<CascadeNode> &nodes = cascade->diagram().cascade().nodes;
        return !cascade->diagram().isEmpty() && !nodes.empty() && nodes.back().kind == CascadeNode::Kind::Failure;
    };
    QTRY_VERIFY_WITH_TIMEOUT(endsInFailure(), 10000);
    const Cascade &shownCascade = cascade->diagram().cascade();
    const auto evicted = std::find_if(shownCascade.nodes.begin(), shownCascade.nodes.end(),
                                      [](const CascadeNode &n) { return n.kind == CascadeNode::Kind::Evict; });
    QVERIFY(evicted != shownCascade.nodes.end());
    const TensorId kept = evicted->tensor;
    shown.clear();
    emit cascade->keepResidentRequested(kept);
    // The kept run is drawn over the selected run; the selection stays what the strip shows.
    const auto plot = [this]() -> const TimelinePlot & { return m_window->timeline()->view()->plot(); };
    QTRY_VERIFY_WITH_TIMEOUT(
        !plot().empty() && plot().comparison && !plot().comparison->request.config.keepResident.empty(), 10000);
    QCOMPARE(plot().comparison->request.config.keepResident.front(), kept);
    QCOMPARE(plot().comparison->request.config.budget, sweep->request(0, *failing).config.budget);
    QVERIFY(plot().run->request.config.keepResident.empty());
    QCOMPARE(plot().run->request.config.budget, sweep->request(0, *failing).config.budget);
    QCOMPARE(m_window->strip()->selection()->column, *failing);
    QVERIFY(m_window->timeline()->statusText().contains(QStringLiteral("kept")));
    QTRY_VERIFY_WITH_TIMEOUT(endsInFailure(), 10000);
    // Undo drops the comparison and nothing else.
    m_window->undoKeep();
    QTRY_VERIFY_WITH_TIMEOUT(
        !plot().empty() && (!plot().comparison || plot().comparison->request.config.keepResident.empty()), 10000);
    QCOMPARE(m_window->strip()->selection()->column, *failing);
}

// The Holes table marks the hole the selected run lies in; a sweep again keeps the selection.
void MainWindowTest::selectionIsCoherent()
{
    QVERIFY(openDemo());
    const SweepResultModel *sweep = m_window->sweepModel();
    QTableView *holes = m_window->holeView();
    QVERIFY(holes->model()->rowCount() > 0);
    const QModelIndex first = holes->model()->index(0, 0);
    emit holes->clicked(first); // jump to the first hole
    const auto inHole = m_window->strip()->selection();
    QVERIFY(inHole);
    QVERIFY(sweep->result(inHole->policy, inHole->column)->outcome != Outcome::Pass);
    QCOMPARE(holes->selectionModel()->selectedRows().size(), 1);
    QCOMPARE(holes->selectionModel()->selectedRows().front().row(), 0);
    m_window->strip()->setSelection(FeasibilityStrip::Cell{inHole->policy, sweep->gridSize() - 1}); // passes
    QVERIFY(holes->selectionModel()->selectedRows().isEmpty());

    QSignalSpy finished(m_window.get(), &MainWindow::sweepFinished);
    QVERIFY(m_window->startSweep());
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 20000);
    QVERIFY(m_window->strip()->selection());
    QCOMPARE(m_window->strip()->selection()->column, sweep->gridSize() - 1);
    const Bytes kept = sweep->request(inHole->policy, sweep->gridSize() - 1).config.budget;
    QTRY_VERIFY_WITH_TIMEOUT(!m_window->timeline()->view()->plot().empty()
                                 && m_window->timeline()->view()->plot().run->request.config.budget == kept,
                             10000);
    QCOMPARE(m_window->strip()->selection()->column, sweep->gridSize() - 1);
}

// The wheel zooms the strip at the cursor, dragging pans, 0 shows every budget; Shift+drag marks.
void MainWindowTest::stripZoomsAndPans()
{
    QVERIFY(openDemo());
    FeasibilityStrip *strip = m_window->strip();
    strip->resetZoom();
    const std::size_t columns = m_window->sweepModel()->gridSize();
    QVERIFY(!strip->view().zoomed());
    const StripGeometry whole = strip->cellGeometry();
    const QPointF at(whole.columnCenter(20), whole.cellArea().center().y());
    QWheelEvent in(at, strip->mapToGlobal(at), QPoint(), QPoint(0, 120 * 5), Qt::NoButton, Qt::NoModifier,
                   Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(strip, &in);
    QVERIFY(strip->view().zoomed());
    QVERIFY(strip->view().width() < double(columns) * 0.5);
    // The budget under the cursor stays under it.
    QCOMPARE(strip->cellGeometry().columnAt(at.x()), std::optional<int>(20));
    const double from = strip->view().from;
    const QPoint press = at.toPoint();
    QTest::mousePress(strip, Qt::LeftButton, Qt::NoModifier, press);
    QTest::mouseMove(strip, press + QPoint(-80, 0));
    QTest::mouseRelease(strip, Qt::LeftButton, Qt::NoModifier, press + QPoint(-80, 0));
    QVERIFY(strip->view().from > from); // dragged left: later budgets come into view
    QVERIFY(!strip->range());
    strip->setFocus();
    QTest::keyClick(strip, Qt::Key_0);
    QVERIFY(!strip->view().zoomed());
    // Sessions keep the zoom as budget ratios.
    QVERIFY(!strip->viewedRatios());
    strip->showRatios(0.3, 0.5);
    const auto ratios = strip->viewedRatios();
    QVERIFY(ratios);
    QVERIFY(std::abs(ratios->first - 0.3) < 1e-9 && std::abs(ratios->second - 0.5) < 1e-9);
    QCOMPARE(strip->cellGeometry().columnAt(strip->cellGeometry().cellArea().left() + 1),
             std::optional<int>(10)); // 0.30 is column 10 of the 0.20-1.00 grid
    strip->resetZoom();
    const StripGeometry g = strip->cellGeometry();
    QTest::mousePress(strip, Qt::LeftButton, Qt::ShiftModifier, g.cell(0, 5).center().toPoint());
    QTest::mouseMove(strip, g.cell(0, 9).center().toPoint());
    QTest::mouseRelease(strip, Qt::LeftButton, Qt::ShiftModifier, g.cell(0, 9).center().toPoint());
    QVERIFY(strip->range());
    QCOMPARE(strip->range()->first, std::size_t{5});
    QCOMPARE(strip->range()->second, std::size_t{9});
    QVERIFY(!strip->view().zoomed());
}

// After a selection shows, its neighbours are recorded ahead; stepping onto one needs no replay.
void MainWindowTest::recordedRunsAreKeptAndPrefetched()
{
    QVERIFY(openDemo());
    TimelinePanel *timeline = m_window->timeline();
    timeline->setOverlay(TimelinePanel::Overlay::None);
    QSignalSpy shown(m_window.get(), &MainWindow::timelineShown);
    m_window->strip()->setSelection(FeasibilityStrip::Cell{0, 30});
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->inspector().keptRuns() >= 3, 10000); // 30, 29 and 31
    const auto before = timeline->view()->plot().run;
    m_window->strip()->setSelection(FeasibilityStrip::Cell{0, 31});
    QTRY_VERIFY_WITH_TIMEOUT(!timeline->view()->plot().empty() && timeline->view()->plot().run != before, 10000);
    QCOMPARE(timeline->view()->plot().run->request.config.budget, m_window->sweepModel()->request(0, 31).config.budget);
}

void MainWindowTest::inspectedRunCacheKeepsTheRecent()
{
    const TraceReadResult read = readTraceFile(REMATLENS_SOURCE_DIR "/traces/chain.log");
    QVERIFY(read.ok());
    const Baseline baseline = computeBaseline(*read.program);
    InspectedRunCache cache(2);
    std::vector<std::shared_ptr<const InspectedRun>> runs;
    for (double ratio : {0.5, 0.6, 0.7}) {
        RunRequest request;
        request.ratio = ratio;
        request.config.budget = budgetForRatio(baseline, ratio);
        runs.push_back(inspectRun(*read.program, request));
        cache.insert(read.program.get(), runs.back());
    }
    QCOMPARE(cache.size(), std::size_t{2});
    QVERIFY(!cache.find(read.program.get(), runs[0]->request)); // the oldest went
    QCOMPARE(cache.find(read.program.get(), runs[2]->request), runs[2]);
    RunRequest kept = runs[2]->request;
    kept.config.keepResident = {0};
    QVERIFY(!cache.find(read.program.get(), kept));  // keeping a tensor is another replay
    QVERIFY(!cache.find(nullptr, runs[2]->request)); // another program
    auto cancelled = std::make_shared<InspectedRun>(*runs[1]);
    cancelled->result.outcome = Outcome::Cancelled;
    cache.insert(read.program.get(), cancelled);
    QCOMPARE(cache.find(read.program.get(), runs[1]->request), runs[1]);
    cache.clear();
    QCOMPARE(cache.size(), std::size_t{0});
}

void MainWindowTest::reopenedTraceShowsItsStripAtOnce()
{
    QVERIFY(openDemo());
    std::vector<Outcome> before;
    const SweepResultModel *model = m_window->sweepModel();
    for (std::size_t p = 0; p < model->policyCount(); ++p)
        for (std::size_t i = 0; i < model->gridSize(); ++i)
            before.push_back(model->result(p, i)->outcome);
    // A new window, as in a new session: the sweep comes back from the cache, nothing replayed.
    MainWindow second;
    QSignalSpy finished(&second, &MainWindow::sweepFinished);
    second.setSweepParameters(demoGrid());
    second.openTrace(QStringLiteral(":demo"));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
    std::vector<Outcome> after;
    const SweepResultModel *again = second.sweepModel();
    QCOMPARE(again->finishedCount(), again->gridSize() * again->policyCount());
    for (std::size_t q = 0; q < again->policyCount(); ++q)
        for (std::size_t i = 0; i < again->gridSize(); ++i)
            after.push_back(again->result(q, i)->outcome);
    QCOMPARE(after, before);
    // Every run of the first session is in the trace's cache file.
    const QDir cache(SweepCache::directory());
    const QStringList files = cache.entryList({QStringLiteral("*.jsonl")}, QDir::Files);
    QCOMPARE(files.size(), 1);
    QFile file(cache.filePath(files.first()));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll().count('\n'), static_cast<qsizetype>(before.size()));
}

void MainWindowTest::cancelAndRestart()
{
    QVERIFY(openDemo());
    SweepParameters p;
    p.from = QStringLiteral("0.2");
    p.to = QStringLiteral("1.0");
    p.step = QStringLiteral("0.0001"); // 8001 budgets per policy: long enough to cancel
    p.policies = {QStringLiteral("DTR"), QStringLiteral("DTREqClass")};
    m_window->setSweepParameters(p);
    QSignalSpy finished(m_window.get(), &MainWindow::sweepFinished);
    // Cancel is offered only while something runs.
    auto *cancel = m_window->findChild<QAction *>(QStringLiteral("cancelAction"));
    QVERIFY(cancel);
    QVERIFY(!cancel->isEnabled());
    QVERIFY(m_window->startSweep());
    QVERIFY(m_window->sweepRunning());
    QVERIFY(cancel->isEnabled());
    QTest::keyClick(m_window.get(), Qt::Key_Period, Qt::ControlModifier);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
    QCOMPARE(finished.first().first().toBool(), true);
    QVERIFY(!cancel->isEnabled());
    QVERIFY(m_window->sweepModel()->finishedCount() < m_window->sweepModel()->gridSize() * 2);
    p.step = QStringLiteral("0.05");
    m_window->setSweepParameters(p);
    QVERIFY(m_window->startSweep());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 20000);
    QCOMPARE(finished.last().first().toBool(), false);
    QCOMPARE(m_window->sweepModel()->finishedCount(), std::size_t{2 * 17});
    QVERIFY(!cancel->isEnabled());
}

// A score expression and a parametrized policy sweep as rows of the strip like any policy; a bad
// expression is refused before anything runs.
void MainWindowTest::customPoliciesAreRows()
{
    QVERIFY(openDemo());
    const QString expression = QStringLiteral("expr:(compute + estar) / (size * staleness)");
    SweepParameters p;
    p.from = QStringLiteral("0.2");
    p.to = QStringLiteral("1.0");
    p.step = QStringLiteral("0.05");
    p.policies = {QStringLiteral("DTR"), expression, QStringLiteral("DTRPenalty:b=2")};
    m_window->setSweepParameters(p);
    QSignalSpy finished(m_window.get(), &MainWindow::sweepFinished);
    QVERIFY(m_window->startSweep());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
    const SweepResultModel *model = m_window->sweepModel();
    QCOMPARE(model->policyCount(), std::size_t{3});
    QCOMPARE(model->policyName(1), expression);
    QCOMPARE(model->policyName(2), QStringLiteral("DTRPenalty:b=2"));
    QCOMPARE(model->finishedCount(), std::size_t{3 * 17});
    for (std::size_t i = 0; i < model->gridSize(); ++i) // DTR's score as an expression: DTR's runs
        QCOMPARE(model->result(1, i)->clock, model->result(0, i)->clock);

    p.policies = {QStringLiteral("expr:size +")};
    m_window->setSweepParameters(p);
    QVERIFY(!m_window->startSweep());
    QCOMPARE(model->policyCount(), std::size_t{3}); // what was shown stays
}

void MainWindowTest::windowClosedMidSweepResumes()
{
    SweepParameters p;
    p.from = QStringLiteral("0.3");
    p.to = QStringLiteral("0.9");
    p.step = QStringLiteral("0.0002"); // 3001 budgets: long enough to close the window half-way
    p.policies = {QStringLiteral("DTR")};
    const QString trace = QStringLiteral(REMATLENS_SOURCE_DIR "/traces/lstm.log");
    std::size_t keptByFirst = 0;
    {
        MainWindow first;
        QSignalSpy loaded(&first, &MainWindow::traceLoaded);
        first.setSweepParameters(p);
        first.openTrace(trace);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(first.sweepModel()->finishedCount() >= 100, 30000);
        first.close(); // the session ends mid-sweep
        keptByFirst = first.sweepModel()->finishedCount();
        QVERIFY2(keptByFirst < 3001, "the sweep finished before the window closed");
    }
    MainWindow second;
    QSignalSpy finished(&second, &MainWindow::sweepFinished);
    second.setSweepParameters(p);
    second.openTrace(trace);
    // At once the runs of the first session are there; the rest is replayed.
    QTRY_VERIFY_WITH_TIMEOUT(second.sweepModel()->finishedCount() >= keptByFirst, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
    QCOMPARE(second.sweepModel()->finishedCount(), std::size_t{3001});
}

void MainWindowTest::badTraceKeepsWhatWasThere()
{
    QVERIFY(openDemo());
    const QString bad = m_user.filePath(QStringLiteral("bad.log"));
    QFile file(bad);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{\"INSTRUCTION\":\"CONSTANT\",\"NAME\":\"w\"}\nnot json\n");
    file.close();
    const QString title = m_window->windowTitle();
    const int rows = m_window->sweepModel()->rowCount();
    QSignalSpy failed(m_window.get(), &MainWindow::traceFailed);
    m_window->openTrace(bad);
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 10000);
    QVERIFY(failed.first().first().toString().contains(QStringLiteral("bad.log:2")));
    QCOMPARE(m_window->windowTitle(), title);
    QCOMPARE(m_window->sweepModel()->rowCount(), rows);
}

void MainWindowTest::screenshotWritesPng()
{
    const QString png = m_user.filePath(QStringLiteral("shot.png"));
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), m_user.filePath(QStringLiteral("config")));
    environment.insert(QStringLiteral("XDG_DATA_HOME"), m_user.filePath(QStringLiteral("data")));
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(REMATLENS_BINARY),
                  {QStringLiteral("gui"), QStringLiteral(":demo"), QStringLiteral("--sweep"),
                   QStringLiteral("0.2:1.0:0.01"), QStringLiteral("--select"), QStringLiteral("0.5"),
                   QStringLiteral("--screenshot"), png, QStringLiteral("--size"), QStringLiteral("1280x800")});
    QVERIFY(process.waitForFinished(60000));
    QCOMPARE(process.exitCode(), 0);
    const QImage image(png);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), QSize(1280, 800));
}

// `rematlens gui TRACE --sweep --policy --checkpointing --select` without --screenshot: the
// window sweeps what they name, selects the budget, and stays open.
void MainWindowTest::startupOptionsApplyWithoutScreenshot()
{
    GuiOptions options;
    options.sweep = "0.3:0.5:0.05";
    options.policies = {"DTR", "MSPS"};
    options.checkpointing = true;
    options.select = "0.4";
    QVERIFY(GuiStartupJob::validate(options).isEmpty());
    auto *job = new GuiStartupJob(*m_window, options);
    job->start();
    QSignalSpy shown(m_window.get(), &MainWindow::timelineShown);
    QSignalSpy finished(m_window.get(), &MainWindow::sweepFinished);
    m_window->openTrace(QStringLiteral(":demo"));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
    const SweepParameters p = m_window->sweepParameters();
    QCOMPARE(p.from, QStringLiteral("0.3"));
    QCOMPARE(p.step, QStringLiteral("0.05"));
    QCOMPARE(p.policies, (QStringList{QStringLiteral("DTR"), QStringLiteral("MSPS")}));
    QVERIFY(p.checkpointing);
    QCOMPARE(m_window->sweepModel()->policyCount(), std::size_t{2});
    QCOMPARE(m_window->sweepModel()->gridSize(), std::size_t{5});
    QTRY_VERIFY_WITH_TIMEOUT(m_window->scheduleRows()->rowCount() == 1 && !m_window->schedulesRunning(), 60000);
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1, 20000);
    QCOMPARE(m_window->selection().current()->request.ratio, m_window->sweepModel()->grid()[2].ratio);
    QVERIFY(m_window->isVisible()); // no screenshot asked: the window stays

    GuiOptions bad;
    bad.size = "12x12";
    QVERIFY(GuiStartupJob::validate(bad).contains(QStringLiteral("--size")));
}

// After a click, the table's arrows move the selection from hole to hole as clicks do; a
// selection made elsewhere while the table keeps the keys moves no hole.
void MainWindowTest::holesTableArrowsMoveBetweenHoles()
{
    QVERIFY(openDemo());
    QTableView *holes = m_window->holeView();
    QVERIFY2(holes->model()->rowCount() > 1, "the demo has at least two holes");
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    const auto click = [holes](int row) {
        const QPoint centre = holes->visualRect(holes->model()->index(row, 1)).center();
        QTest::mouseClick(holes->viewport(), Qt::LeftButton, {}, centre);
    };
    click(1);
    const auto second = m_window->strip()->selection();
    QVERIFY(second);
    click(0);
    QVERIFY(holes->hasFocus());
    QVERIFY(m_window->strip()->selection() != second);
    QTest::keyClick(holes, Qt::Key_Down);
    QCOMPARE(holes->currentIndex().row(), 1);
    QCOMPARE(m_window->strip()->selection(), second);

    const FeasibilityStrip::Cell passing{second->policy, m_window->sweepModel()->gridSize() - 1};
    m_window->strip()->setSelection(passing);
    QVERIFY(holes->hasFocus());
    QCOMPARE(m_window->strip()->selection()->column, passing.column);
}

// A hole clicked in the Holes table, then Ctrl+C: its cells on the clipboard, bytes exact. The
// shortcut table lists Copy once, naming every table that has it.
void MainWindowTest::holesTableCopiesWithCtrlC()
{
    QVERIFY(openDemo());
    QTableView *holes = m_window->holeView();
    QVERIFY(holes->model()->rowCount() > 0);
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    QTest::mouseClick(holes->viewport(), Qt::LeftButton, {}, holes->visualRect(holes->model()->index(0, 1)).center());
    QVERIFY(holes->hasFocus()); // the click jumped to the hole and left the keys with the table
    QVERIFY(m_window->selection().current());
    QGuiApplication::clipboard()->clear();
    QTest::keyClick(holes, Qt::Key_C, Qt::ControlModifier);
    const QString copied = QGuiApplication::clipboard()->text();
    QVERIFY2(copied.startsWith(QStringLiteral("DTR\t")), qPrintable(copied));
    QVERIFY2(copied.contains(holes->model()->index(0, 1).data().toString()), qPrintable(copied));

    const ShortcutTable table(*m_window);
    const QString copy = QKeySequence(QKeySequence::Copy).toString(QKeySequence::NativeText);
    int copies = 0;
    for (const ShortcutTable::Entry &entry : table.entries())
        if (entry.keys == copy) {
            ++copies;
            QVERIFY2(entry.where.contains(QStringLiteral("Holes")) && entry.where.contains(QStringLiteral("Selected run")),
                     qPrintable(entry.where));
        }
    QCOMPARE(copies, 1);
}

// Under the byte sum the dock explains itself; under the caching model it shows the selected run
// at its default step, and a click in the timeline shows the step clicked.
void MainWindowTest::memoryMapFollowsSelectionAndTimeline()
{
    QVERIFY(openDemo());
    MemoryMapView *map = m_window->memoryMap()->view();
    QSignalSpy mapShown(m_window.get(), &MainWindow::memoryMapShown);
    m_window->strip()->setSelection(FeasibilityStrip::Cell{0, 5});
    QTRY_VERIFY_WITH_TIMEOUT(mapShown.count() >= 1 && map->figure().plot()->program, 10000);
    QVERIFY(map->figure().plot()->byteSum());
    QVERIFY(!map->layout());

    SweepParameters p;
    p.allocators = {QStringLiteral("caching")};
    p.from = QStringLiteral("0.2");
    p.to = QStringLiteral("1.0");
    p.step = QStringLiteral("0.01");
    p.policies = {QStringLiteral("DTR")};
    m_window->setSweepParameters(p);
    QSignalSpy finished(m_window.get(), &MainWindow::sweepFinished);
    QVERIFY(m_window->startSweep());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
    mapShown.clear();
    QSignalSpy timelineShown(m_window.get(), &MainWindow::timelineShown);
    m_window->strip()->setSelection(FeasibilityStrip::Cell{0, 40});
    QTRY_VERIFY_WITH_TIMEOUT(mapShown.count() >= 1 && timelineShown.count() >= 1 && map->figure().plot()->snapshot,
                             20000);
    const MemoryMapPlot &plot = *map->figure().plot();
    QCOMPARE(plot.request.config.allocator.kind, AllocatorKind::Caching);
    const TimelinePlot &timeline = m_window->timeline()->view()->plot();
    QVERIFY(timeline.track->hasAllocation());
    QCOMPARE(plot.snapshot->step, *defaultSnapshotStep(timeline.run->recording, timeline.run->result));
    QVERIFY(map->layout() && !map->layout()->pieces().empty());
    // The timeline marks the step the map shows.
    TimelineView *view = m_window->timeline()->view();
    QVERIFY(view->markedStep() == std::optional(std::uint32_t(plot.snapshot->step)));

    // A click in the middle of the plot area picks the step under it.
    const QRectF area = view->chart()->plotArea();
    const QPoint at = view->mapFromScene(view->chart()->mapToScene(area.center()));
    const std::uint32_t clicked =
        *view->stepAt(view->chart()->mapToValue(area.center(), view->chart()->series().front()).x());
    mapShown.clear();
    QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::NoModifier, at);
    QTRY_VERIFY_WITH_TIMEOUT(mapShown.count() >= 1, 20000);
    const MemoryMapPlot &atClick = *map->figure().plot();
    QVERIFY(atClick.snapshot);
    if (!atClick.snapshot->atFailure)
        QVERIFY2(std::abs(double(atClick.snapshot->step) - double(clicked)) <= 2,
                 qPrintable(QStringLiteral("map at %1, clicked near %2").arg(atClick.snapshot->step).arg(clicked)));
    // The marker follows the map to its new step: a vertical line at that step's x, in the plot.
    QVERIFY(view->markedStep() == std::optional(std::uint32_t(atClick.snapshot->step)));
    const std::optional<QLineF> marker = view->chartContent().markerLine();
    QVERIFY(marker);
    const double markedX = timeline.track->xOfStep(std::uint32_t(atClick.snapshot->step));
    const QPointF expected = view->chart()->mapToPosition(QPointF(markedX, 0), view->chart()->series().front());
    QCOMPARE(marker->x1(), marker->x2());
    QVERIFY2(std::abs(marker->x1() - expected.x()) < 0.5,
             qPrintable(QStringLiteral("marker at %1, step at %2").arg(marker->x1()).arg(expected.x())));
    QVERIFY(marker->x1() >= area.left() && marker->x1() <= area.right());
    // Closing the dock takes the marker away; opening it brings it back.
    m_window->memoryMapDock()->hide();
    QTRY_VERIFY(!view->chartContent().markerLine());
    m_window->memoryMapDock()->show();
    QTRY_VERIFY(view->chartContent().markerLine().has_value());
    p.allocators = {QStringLiteral("sum")};
    m_window->setSweepParameters(p);
}

// Each dock and tool bar the View menu shows or hides has a name of its own (the Sweep dock and
// the tool bar were both "Sweep").
void MainWindowTest::viewMenuNamesEachPartOnce()
{
    QMenu *view = nullptr;
    for (QAction *menu : m_window->menuBar()->actions())
        if (menu->menu() && menu->text().remove(QLatin1Char('&')) == QStringLiteral("View"))
            view = menu->menu();
    QVERIFY(view);
    QStringList names;
    for (QAction *action : view->actions())
        if (!action->isSeparator())
            names << action->text().remove(QLatin1Char('&'));
    QVERIFY(names.contains(QStringLiteral("Sweep")));
    QVERIFY(names.contains(QStringLiteral("Sweep Toolbar")));
    QCOMPARE(QSet<QString>(names.begin(), names.end()).size(), names.size());
}

QTEST_MAIN(MainWindowTest)
#include "tst_main_window.moc"
