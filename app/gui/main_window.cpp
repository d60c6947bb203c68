#include "main_window.h"

#include "help_window.h"
#include "policy_editor_dialog.h"
#include "runs_export.h"
#include "session_controller.h"
#include "shortcut_table.h"

#include "app/cli/commands.h"
#include "app/cli/public_trace_set.h"
#include "app/cli/trace_source.h"
#include "core/map/budget_walker.h"
#include "views/cascade/cascade_view.h"
#include "views/memory/memory_map_panel.h"
#include "core/analysis/memory_snapshot_at.h"
#include "views/common/byte_units.h"
#include "views/common/number_format.h"
#include "views/common/trace_name.h"
#include "views/strip/feasibility_strip.h"
#include "views/tables/schedule_rows_model.h"
#include "views/strip/mapped_row.h"
#include "views/tables/exact_map_model.h"
#include "views/sweep/sweep_panel.h"
#include "views/tables/hole_list_model.h"
#include "views/tables/run_details_model.h"
#include "views/tables/sweep_result_model.h"
#include "views/tables/trace_summary_model.h"
#include "views/timeline/timeline_panel.h"
#include "views/timeline/timeline_view.h"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QToolButton>

namespace rematlens {

namespace {

QTableView *makeTable(QAbstractItemModel *model, QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setModel(model);
    view->horizontalHeader()->setStretchLastSection(true);
    view->verticalHeader()->hide();
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setAlternatingRowColors(true);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    return view;
}

QDockWidget *makeDock(const QString &title, const QString &name, QWidget *content, QWidget *parent)
{
    auto *dock = new QDockWidget(title, parent);
    dock->setObjectName(name); // for saveState
    dock->setWidget(content);
    return dock;
}

// The step ten times finer, as an exact decimal: "0.01" -> "0.001", "1" -> "0.1".
QString finerStep(const QString &step)
{
    const int point = step.indexOf(QLatin1Char('.'));
    if (point < 0)
        return QStringLiteral("0.") + QString(step.size() - 1, QLatin1Char('0')) + step;
    return step.left(point + 1) + QLatin1Char('0') + step.mid(point + 1);
}

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), m_scheduleRows(new ScheduleRowsModel(this)), m_summaryModel(new TraceSummaryModel(this)), m_sweepModel(new SweepResultModel(this)),
      m_holeModel(new HoleListModel(this)), m_mapModel(new ExactMapModel(this)), m_detailsModel(new RunDetailsModel(this)),
      m_strip(new FeasibilityStrip(this)), m_panel(new SweepPanel(this)), m_timeline(new TimelinePanel(this)),
      m_cascade(new CascadeView(this)), m_memoryMap(new MemoryMapPanel(this)), m_viewTabs(new QTabWidget(this)), m_centre(new QSplitter(this)),
      m_cascadeJobs(this), m_timelineJobs(this), m_memoryMapJobs(this), m_holeView(nullptr), m_progress(new QProgressBar(this)),
      m_cancelButton(new QToolButton(this)), m_statusLabel(new QLabel(this))
{
    setWindowTitle(tr("RematLens"));
    ByteUnits::setSystem(m_settings.decimalUnits() ? UnitSystem::Decimal : UnitSystem::Binary);
    setAcceptDrops(true);
    setDockNestingEnabled(true);
    m_strip->setModels(m_sweepModel, m_holeModel);
    m_strip->setExactMaps(m_mapModel);
    m_strip->setScheduleRows(m_scheduleRows);
    setCentralWidget(createCentre());
    registerFigureView(tr("Feasibility strip"), m_strip);
    registerFigureView(tr("Memory timeline"), m_timeline->view());
    registerFigureView(tr("Cascade"), m_cascade);
    registerFigureView(tr("Memory map"), m_memoryMap->view());
    m_sessions = new SessionController(*this);
    connect(m_sessions, &SessionController::problem, this, &MainWindow::reportProblem);
    m_sessions->setStripViewAccess([this] { return m_strip->viewedRatios(); },
                                   [this](const SessionState::Range &r) { m_strip->showRatios(r.first, r.second); });
    createDocks();
    createMenus();
    createStatusBar();
    for (const QString &expression : m_settings.userExpressions())
        m_panel->addPolicy(QStringLiteral("expr:") + expression, false);
    m_panel->setParameters(m_settings.sweepParameters());

    connectViews();
    m_timeline->setAxis(TimelineAxis(m_settings.timelineAxis()));
    m_timeline->setOverlay(TimelinePanel::Overlay(m_settings.timelineOverlay()));

    if (!restoreGeometry(m_settings.windowGeometry()))
        resize(1400, 850);
    restoreState(m_settings.windowState());
    m_centre->restoreState(m_settings.centreState());
}

// Who answers whom: the loader, the sweep controller and the inspector feed the views; the
// views' requests come back here.
void MainWindow::connectViews()
{
    connect(&m_loader, &TraceLoader::loaded, this, &MainWindow::showLoaded);
    connect(&m_loader, &TraceLoader::failed, this, &MainWindow::showFailure);
    connect(&m_controller, &SweepController::resultsArrived, this, &MainWindow::showResults);
    connect(&m_controller, &SweepController::progress, this, &MainWindow::showProgress);
    connect(&m_controller, &SweepController::finished, this, &MainWindow::showFinished);
    connect(m_panel, &SweepPanel::sweepRequested, this, &MainWindow::startSweep);
    connect(m_panel, &SweepPanel::cancelRequested, this, &MainWindow::cancelJobs);
    connect(&m_scheduler, &ScheduleController::checkpointAnswered, this, &MainWindow::showCheckpoint);
    connect(&m_scheduler, &ScheduleController::optimalAnswered, this, &MainWindow::showOptimal);
    connect(&m_scheduler, &ScheduleController::progress, this, &MainWindow::showScheduleProgress);
    connect(&m_scheduler, &ScheduleController::finished, this, &MainWindow::showSchedulesFinished);
    connect(m_panel, &SweepPanel::policyEditorRequested, this, &MainWindow::editCustomPolicy);
    connect(m_strip, &FeasibilityStrip::selectionChanged, this, &MainWindow::showSelection);
    connect(m_strip, &FeasibilityStrip::intervalSelected, this, &MainWindow::showInterval);
    connect(&m_mapper, &MapController::intervalsArrived, this, &MainWindow::showMapIntervals);
    connect(&m_mapper, &MapController::progress, this, &MainWindow::showMapProgress);
    connect(&m_mapper, &MapController::finished, this, &MainWindow::showMapFinished);
    connect(m_strip, &FeasibilityStrip::refineRequested, this, &MainWindow::refine);
    connect(&m_inspector, &RunInspector::inspected, this, &MainWindow::showInspected);
    connect(m_timeline, &TimelinePanel::overlayChanged, this, [this](TimelinePanel::Overlay overlay) {
        m_settings.setTimelineOverlay(int(overlay));
        inspectSelection();
    });
    connect(m_timeline, &TimelinePanel::axisChanged, this, [this](TimelineAxis axis) {
        m_settings.setTimelineAxis(int(axis));
        if (m_inspected.first) {
            m_timeline->setBusy(true);
            buildTimeline();
        }
    });
    connect(m_timeline, &TimelinePanel::pinRequested, this, &MainWindow::pinShownRun);
    connect(m_cascade, &CascadeView::momentActivated, this, [this](std::uint32_t step, Cost) {
        m_viewTabs->setCurrentWidget(m_timeline);
        m_timeline->view()->showStep(step);
    });
    connect(m_timeline->view(), &TimelineView::stepClicked, this, [this](std::uint32_t step) {
        if (m_inspected.first && !m_inspected.first->request.config.allocator.isSum()) {
            m_memoryMapDock->raise();
            showMemoryMap(step);
        }
    });
    connect(m_memoryMap, &MemoryMapPanel::stepRequested, this, [this](std::size_t step) { showMemoryMap(step); });
    connect(m_memoryMap, &MemoryMapPanel::defaultStepRequested, this, [this] { showMemoryMap(std::nullopt); });
    connect(m_memoryMapDock, &QDockWidget::visibilityChanged, this, &MainWindow::markMemoryMapStep);
    connect(m_cascade, &CascadeView::keepResidentRequested, this, &MainWindow::rerunKeeping);
    connect(m_cascade, &CascadeView::causesRequested, this,
            [this](std::size_t event) { showCascade(m_shownRun, event); });
    connect(m_holeView, &QTableView::activated, this, &MainWindow::jumpToHole);
    connect(m_holeView, &QTableView::clicked, this, &MainWindow::jumpToHole);
}

void MainWindow::createDocks()
{
    auto *summaryView = makeTable(m_summaryModel, this);
    summaryView->setObjectName(QStringLiteral("summaryView"));
    summaryView->horizontalHeader()->hide();
    summaryView->setToolTip(tr("The trace's baseline memory and compute, constant memory, bottleneck and sizes"));
    QDockWidget *trace = makeDock(tr("Trace"), QStringLiteral("traceDock"), summaryView, this);
    QDockWidget *sweep = makeDock(tr("Sweep"), QStringLiteral("sweepDock"), m_panel, this);
    m_holeView = makeTable(m_holeModel, this);
    m_holeView->setToolTip(tr("Failing budgets with a pass below and above; click one to select it in the strip"));
    QDockWidget *holes = makeDock(tr("Holes"), QStringLiteral("holesDock"), m_holeView, this);
    m_holeView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_holeView->horizontalHeader()->setStretchLastSection(false);
    QTableView *details = makeTable(m_detailsModel, this);
    details->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    details->setTextElideMode(Qt::ElideMiddle);
    details->setToolTip(tr("Every field of the run selected in the strip, with its failure if it ran out of memory"));
    QDockWidget *run = makeDock(tr("Selected run"), QStringLiteral("runDock"), details, this);
    QTableView *runs = makeTable(m_sweepModel, this);
    runs->setToolTip(tr("Every run of the sweep, as File > Export Runs writes them"));
    QDockWidget *runsDock = makeDock(tr("All runs"), QStringLiteral("runsDock"), runs, this);
    addDockWidget(Qt::LeftDockWidgetArea, trace);
    addDockWidget(Qt::LeftDockWidgetArea, sweep);
    addDockWidget(Qt::RightDockWidgetArea, holes);
    addDockWidget(Qt::RightDockWidgetArea, run);
    tabifyDockWidget(run, runsDock);
    run->raise();
    m_docks = {trace, sweep, holes, run};
    m_memoryMapDock = createMemoryMapDock();
    m_viewMenu = new QMenu(tr("&View"), this);
    for (QDockWidget *dock : {trace, sweep, holes, run, runsDock, m_memoryMapDock})
        m_viewMenu->addAction(dock->toggleViewAction());
}

// Under the strip and the timeline, between the side columns: beside the cascade, so the
// timeline (where a click picks the step) and the map show together.
QDockWidget *MainWindow::createMemoryMapDock()
{
    QDockWidget *dock = makeDock(tr("Memory map"), QStringLiteral("memoryMapDock"), m_memoryMap, this);
    dock->setToolTip(tr("The allocator's segments and blocks of the selected run at one step (allocator models "
                        "only)"));
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    addDockWidget(Qt::BottomDockWidgetArea, dock);
    return dock;
}

// The side columns take about a fifth of the window each, the strip and the timeline the rest;
// in each column the lower dock (sweep controls, selected run) gets the larger share. Done at
// the first start, after a resize for a screenshot, and by View > Reset Layout.
void MainWindow::arrangeDocks()
{
    const auto [trace, sweep, holes, run] = m_docks;
    const int side = std::clamp(width() / 5, 230, 380);
    resizeDocks({trace, holes}, {side, side}, Qt::Horizontal);
    const int column = std::max(200, height() - menuBar()->height() - statusBar()->height());
    resizeDocks({trace, sweep}, {column * 3 / 10, column * 7 / 10}, Qt::Vertical);
    resizeDocks({holes, run}, {column * 3 / 10, column * 7 / 10}, Qt::Vertical);
    // On a small screen the timeline keeps the larger share: the map is read at one step, the
    // timeline across all of them.
    const bool small = column < 800;
    resizeDocks({m_memoryMapDock}, {small ? std::max(130, column / 4) : column * 3 / 10}, Qt::Vertical);
    const int centre = m_centre->height();
    m_centre->setSizes(small ? QList<int>{centre / 3, centre * 2 / 3} : QList<int>{centre * 2 / 5, centre * 3 / 5});
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    if (!m_arranged && m_settings.windowState().isEmpty())
        arrangeDocks();
    m_arranged = true;
}

// The strip above, the timeline and the cascade below it, in the centre: when the window grows
// both grow (the timeline the more), and the timeline never shrinks below a readable height.
QWidget *MainWindow::createCentre()
{
    auto *cascadeScroll = new QScrollArea(this);
    cascadeScroll->setWidget(m_cascade);
    cascadeScroll->setWidgetResizable(true);
    m_cascade->setToolTip(tr("Click a box to show its moment in the timeline; click a folded crowd of evictions to "
                             "unfold it; right-click to keep a tensor resident and rerun"));
    m_viewTabs->setObjectName(QStringLiteral("viewTabs"));
    m_viewTabs->addTab(m_timeline, tr("Memory timeline"));
    m_viewTabs->addTab(cascadeScroll, tr("Cascade"));
    m_viewTabs->setTabToolTip(0, tr("Memory in use over the selected run, with its evictions and rematerializations"));
    m_viewTabs->setTabToolTip(1, tr("Which evictions forced which rematerializations, down to the failing allocation"));
    m_timeline->setMinimumHeight(fontMetrics().height() * 16);
    m_centre->setObjectName(QStringLiteral("centreSplitter"));
    m_centre->setOrientation(Qt::Vertical);
    m_centre->setChildrenCollapsible(false);
    m_centre->addWidget(m_strip);
    m_centre->addWidget(m_viewTabs);
    m_centre->setStretchFactor(0, 2);
    m_centre->setStretchFactor(1, 3);
    return m_centre;
}

void MainWindow::showViewTab(int index)
{
    m_viewTabs->setCurrentIndex(index);
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(tr("&Open Trace…"), this, &MainWindow::chooseTrace);
    open->setShortcut(QKeySequence::Open);
    open->setStatusTip(tr("Open a simrd JSON-lines trace"));
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    refreshRecentMenu();
    file->addAction(tr("Open &Demo Trace"), this, [this] { openTrace(QLatin1String(kDemoTraceName)); })
        ->setStatusTip(tr("Open the small trace embedded in RematLens"));
    file->addSeparator();
    QAction *openSession = file->addAction(tr("Open &Session…"), this, [this] { m_sessions->chooseAndOpen(this); });
    openSession->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    openSession->setStatusTip(tr("Bring back a saved session: its trace, sweep, selected and pinned runs, overlay and zoom"));
    QAction *saveSession = file->addAction(tr("Sa&ve Session…"), this, [this] { m_sessions->chooseAndSave(this); });
    saveSession->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_S));
    saveSession->setStatusTip(tr("Write what the window shows to a .rematlens file, to open again later"));
    file->addSeparator();
    QAction *exportFigure = file->addAction(tr("&Export Figure…"), this, &MainWindow::exportFigure);
    exportFigure->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    exportFigure->setStatusTip(tr("Write a view as SVG, PDF or PNG for a paper or a slide, with its data as CSV"));
    file->addAction(tr("Export &Runs…"), this, &MainWindow::exportRuns)
        ->setStatusTip(tr("Write the strip's finished runs as JSON lines or CSV, as rematlens sweep --out does"));
    file->addSeparator();
    QAction *reopen = file->addAction(tr("Reopen &Last Trace at Start"));
    reopen->setCheckable(true);
    reopen->setChecked(m_settings.reopenLastTrace());
    reopen->setStatusTip(tr("At start, open the trace shown when the window was last used instead of the demo"));
    connect(reopen, &QAction::toggled, this, [this](bool on) { m_settings.setReopenLastTrace(on); });
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *sweep = menuBar()->addMenu(tr("&Sweep"));
    QAction *run = sweep->addAction(tr("&Sweep Budgets"), this, &MainWindow::startSweep);
    run->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    run->setStatusTip(tr("Replay every policy at every budget of the range and step"));
    QAction *map = sweep->addAction(tr("&Map Exactly"), this, &MainWindow::startMap);
    map->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_M));
    map->setStatusTip(tr("Classify every byte of the marked range (or of the sweep's range) for each policy of the "
                         "strip: its rows then draw the intervals of budgets that replay alike, to scale"));
    map->setToolTip(tr("Map every budget byte of the marked range, or of the sweep's range, exactly (Ctrl+M)"));
    QAction *cancel = sweep->addAction(tr("&Cancel Sweep or Map"), this, &MainWindow::cancelJobs);
    cancel->setObjectName(QStringLiteral("cancelAction"));
    cancel->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Period));
    cancel->setStatusTip(tr("Stop the sweep or the map; what is finished stays"));
    cancel->setEnabled(false); // until something runs
    m_cancelAction = cancel;
    sweep->addAction(tr("&Refine Marked Range (R in the strip)"), this, [this] {
        if (const auto range = m_strip->range())
            refine(range->first, range->second);
        else
            statusBar()->showMessage(tr("Drag across budgets in the strip to mark a range first"), 4000);
    });
    QAction *focus = sweep->addAction(tr("Focus the &Strip"), this, [this] { m_strip->setFocus(); });
    focus->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_1));
    QToolBar *tools = addToolBar(tr("Sweep"));
    tools->setObjectName(QStringLiteral("sweepToolBar")); // for saveState
    tools->setToolButtonStyle(Qt::ToolButtonTextOnly);
    tools->addAction(run);
    tools->addAction(map);
    tools->addAction(cancel);
    m_viewMenu->addAction(tools->toggleViewAction());

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    m_undoKeep = edit->addAction(tr("&Undo Keep Resident"), this, &MainWindow::undoKeep);
    m_undoKeep->setShortcut(QKeySequence::Undo);
    m_undoKeep->setStatusTip(tr("Drop the comparison with storages kept resident and show the selected run alone"));
    m_undoKeep->setEnabled(false);

    m_viewMenu->addSeparator();
    m_viewMenu->addAction(tr("Reset &Layout"), this, &MainWindow::arrangeDocks)
        ->setStatusTip(tr("Side columns, strip and timeline back to their default sizes"));
    QMenu *units = m_viewMenu->addMenu(tr("Byte &Units"));
    auto *unitGroup = new QActionGroup(this);
    QAction *binary = units->addAction(tr("&Binary (KiB, MiB, GiB)"));
    QAction *decimal = units->addAction(tr("&Decimal (kB, MB, GB)"));
    for (QAction *action : {binary, decimal}) {
        action->setCheckable(true);
        unitGroup->addAction(action);
    }
    (m_settings.decimalUnits() ? decimal : binary)->setChecked(true);
    connect(decimal, &QAction::toggled, this, &MainWindow::setDecimalUnits);
    menuBar()->addMenu(m_viewMenu);
    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("RematLens &Help"), this, [this] { showHelp(); })->setShortcut(QKeySequence(Qt::Key_F1));
    help->addAction(tr("&Keyboard Shortcuts"), this, [this] { showHelp(QLatin1String(HelpWindow::kShortcutsAnchor)); })
        ->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Slash));
    help->addSeparator();
    help->addAction(tr("&Public DTR Traces…"), this, &MainWindow::explainPublicTraces);
    help->addAction(tr("&About RematLens"), this, [this] {
        QMessageBox::about(this, tr("About RematLens"),
                           tr("<b>RematLens</b> replays Dynamic Tensor Rematerialization traces exactly as simrd "
                              "does, sweeps memory budgets and explains failures.<p>In the strip: click or use the "
                              "arrow keys to select a run (Shift moves faster, Up/Down change policy), drag to mark "
                              "a range and press R to sweep it at a finer step."));
    });
}

void MainWindow::createStatusBar()
{
    m_progress->setMaximumWidth(240);
    m_progress->setTextVisible(true);
    m_progress->setToolTip(tr("Runs of the sweep finished so far"));
    m_statusLabel->setToolTip(tr("How the last sweep went: runs replayed, runs already known (kept from earlier sweeps), holes found"));
    m_progress->hide();
    m_cancelButton->setText(tr("Cancel"));
    m_cancelButton->setToolTip(tr("Stop the sweep or the map (Ctrl+.)"));
    m_cancelButton->hide();
    connect(m_cancelButton, &QToolButton::clicked, this, &MainWindow::cancelJobs);
    statusBar()->addPermanentWidget(m_statusLabel);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancelButton);
}

void MainWindow::registerFigureView(const QString &name, const FigureSource *source)
{
    m_figureViews.push_back({name, source});
}

void MainWindow::exportFigure()
{
    ExportFigureDialog dialog(m_figureViews, m_settings.figureExport(), this);
    const int result = dialog.exec();
    m_settings.setFigureExport(dialog.choices()); // remembered even when cancelled
    if (result == QDialog::Accepted)
        statusBar()->showMessage(tr("Wrote %1").arg(dialog.choices().lastPath), 5000);
}

void MainWindow::refreshRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = m_settings.recentTraces();
    for (const QString &path : recent)
        m_recentMenu->addAction(QFileInfo(path).fileName(), this, [this, path] { openTrace(path); })->setToolTip(path);
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::explainPublicTraces()
{
    const QString directory = PublicTraceSet::defaultDirectory();
    const bool present = QDir(directory).entryList({QStringLiteral("*.log")}, QDir::Files).size() >= 8;
    QMessageBox::information(
        this, tr("Public DTR traces"),
        present ? tr("The eight public DTR traces are installed in<br><tt>%1</tt><br>File > Open starts there.")
                      .arg(directory)
                : tr("The eight traces of the DTR paper's evaluation are not installed. To fetch them (about 11 MB, "
                     "checked against their SHA-256), run<br><tt>rematlens traces download</tt><br>"
                     "in a terminal; they go to<br><tt>%1</tt><br>where File > Open looks first.")
                      .arg(directory));
}

void MainWindow::chooseTrace()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Trace"), m_settings.lastDirectory(),
                                                      tr("simrd traces (*.log *.jsonl);;All files (*)"));
    if (path.isEmpty())
        return;
    m_settings.setLastDirectory(QFileInfo(path).absolutePath());
    openTrace(path);
}

void MainWindow::openTrace(const QString &pathOrDemo)
{
    m_pendingPath = pathOrDemo;
    statusBar()->showMessage(tr("Reading %1…").arg(pathOrDemo));
    m_loader.load(pathOrDemo);
}

void MainWindow::showLoaded(const LoadedTraceResult &result)
{
    m_controller.cancel();
    m_mapper.cancel();
    m_scheduler.cancel();
    m_scheduleRows->reset(false, false, 0);
    m_mapModel->setTrace(result.contentHash);
    if (m_mapCache.open(result.contentHash) && m_mapModel->empty())
        m_mapCache.loadInto(*m_mapModel); // maps made in earlier sessions
    m_selectedInterval.reset();
    m_program = result.program;
    m_baseline = result.summary.baseline;
    m_traceName = result.summary.name;
    m_strip->setTraceName(shortTraceName(result.summary.name));
    m_cache.open(result.contentHash);
    m_summary = result.summary;
    m_summaryModel->setSummary(result.summary);
    m_timeline->setSideFile(result.summary.sideFile);
    if (auto *view = findChild<QTableView *>(QStringLiteral("summaryView")))
        view->resizeColumnToContents(0);
    m_sweepModel->clear();
    rebuildHoles();
    m_detailsModel->clear();
    m_statusLabel->clear();
    m_selected.reset();
    m_kept.reset();
    m_pinned.reset();
    m_inspectionKey.clear();
    m_inspector.cancel();
    m_inspector.forget();
    clearRunViews();
    setWindowTitle(tr("%1 — RematLens").arg(result.summary.name));
    statusBar()->showMessage(tr("Read %1 in %2 ms").arg(result.summary.name).arg(result.milliseconds, 0, 'f', 1), 5000);
    m_tracePath = m_pendingPath == QLatin1String(kDemoTraceName) ? m_pendingPath : QFileInfo(m_pendingPath).absoluteFilePath();
    m_traceHash = result.contentHash;
    m_settings.setLastTrace(m_tracePath);
    if (m_pendingPath != QLatin1String(kDemoTraceName)) {
        m_settings.addRecentTrace(QFileInfo(m_pendingPath).absoluteFilePath());
        refreshRecentMenu();
    }
    emit traceLoaded();
    startSweep();
}

void MainWindow::showFailure(const QString &message)
{
    // The trace and results shown before stay: a bad file loses nothing.
    statusBar()->showMessage(tr("Could not open %1").arg(m_pendingPath), 8000);
    reportProblem(tr("Cannot open trace"), message);
    emit traceFailed(message);
}

void MainWindow::reportProblem(const QString &title, const QString &message)
{
    if (isVisible() && QGuiApplication::platformName() != QLatin1String("offscreen"))
        QMessageBox::warning(this, title, message);
    else
        reportError(ExitBadInput, message.toStdString());
}

void MainWindow::editCustomPolicy()
{
    PolicyEditorDialog editor(m_settings, this);
    if (editor.exec() == QDialog::Accepted)
        m_panel->addPolicy(editor.policySpec(), true);
}

SweepParameters MainWindow::sweepParameters() const
{
    return m_panel->parameters();
}

void MainWindow::setPinnedRun(const RunRequest &run)
{
    m_pinned = run;
    if (m_timeline->overlay() == TimelinePanel::Overlay::Pinned)
        inspectSelection();
}

HelpWindow *MainWindow::showHelp(const QString &anchor)
{
    if (!m_help) // built once every menu exists, so its shortcut table lists them all
        m_help = new HelpWindow(ShortcutTable(*this).toMarkdown(), this);
    m_help->show();
    m_help->raise();
    m_help->activateWindow();
    if (!anchor.isEmpty())
        m_help->showSection(anchor);
    return m_help;
}

void MainWindow::exportRuns()
{
    if (m_sweepModel->finishedCount() == 0) {
        statusBar()->showMessage(tr("No finished runs to export: sweep first"), 4000);
        return;
    }
    const QString csv = tr("CSV (*.csv)");
    QString filter;
    QString path = QFileDialog::getSaveFileName(this, tr("Export Runs"), m_settings.lastDirectory(),
                                                tr("JSON lines (*.jsonl)") + QStringLiteral(";;") + csv, &filter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += filter == csv ? QStringLiteral(".csv") : QStringLiteral(".jsonl");
    auto records = RunsExport::records(*m_sweepModel, traceDisplayName(m_tracePath.toStdString()));
    const std::size_t count = records.size();
    if (QString error; !RunsExport::write(std::move(records), path, error))
        reportProblem(tr("Cannot export the runs"), error);
    else
        statusBar()->showMessage(tr("Wrote %1 runs to %2").arg(count).arg(path), 5000);
}

void MainWindow::setSweepParameters(const SweepParameters &parameters)
{
    m_panel->setParameters(parameters);
}

// The panel's models (a row each per policy) with its eviction coupling; the capacity and the
// caching options come from the command line, where they apply.
AllocatorOptions MainWindow::allocatorOptionsFor(const SweepParameters &p) const
{
    AllocatorOptions options = m_allocatorOptions;
    options.models.clear();
    for (const QString &model : p.allocators)
        options.models.push_back(model.toStdString());
    if (options.models.empty())
        options.models.push_back("sum");
    options.allocator = options.models.front();
    const bool onlySum = options.models.size() == 1 && options.allocator == "sum";
    options.eviction = onlySum ? std::string() : p.eviction.toStdString();
    if (!p.allocators.contains(QStringLiteral("caching")))
        options.options.clear();
    if (options.eviction != "after-op")
        options.capacity.reset();
    return options;
}

void MainWindow::chooseAllocatorModels(const AllocatorOptions &options)
{
    setAllocatorOptions(options);
    if (options.models.empty() && options.isSum() && options.eviction.empty())
        return;
    SweepParameters p = m_panel->parameters();
    if (!options.models.empty() || !options.isSum()) {
        p.allocators.clear();
        for (const std::string &model : options.models)
            p.allocators << QString::fromStdString(model);
        if (p.allocators.isEmpty())
            p.allocators << QString::fromStdString(options.allocator);
    }
    if (!options.eviction.empty())
        p.eviction = QString::fromStdString(options.eviction);
    m_panel->setParameters(p);
}

bool MainWindow::startSweep()
{
    if (!m_program) {
        statusBar()->showMessage(tr("Open a trace first"), 4000);
        return false;
    }
    const SweepParameters p = m_panel->parameters();
    m_mapper.cancel(); // what it mapped stays
    if (p.policies.isEmpty()) {
        reportProblem(tr("Cannot sweep"), tr("Check at least one policy."));
        return false;
    }
    if (bool ok = false; p.optimal && !(p.timeLimit.toDouble(&ok) > 0 && ok)) {
        reportProblem(tr("Cannot sweep"), tr("Time limit: expected a positive number of seconds for the optimal row, "
                                             "not \"%1\".").arg(p.timeLimit));
        return false;
    }
    GridOptions options;
    for (const QString &policy : p.policies)
        options.policies.push_back(policy.toStdString());
    options.runtime = p.runtime.toStdString();
    options.from = p.from.toStdString();
    options.to = p.to.toStdString();
    options.step = p.step.toStdString();
    options.overheadLimit = p.overheadLimit.toStdString();
    SweepSettings settings;
    std::vector<GridPoint> grid;
    std::vector<AllocatorConfig> models; // the grid's settings leave them out: a row each
    std::string problem = prepareGrid(options, settings, grid);
    if (problem.empty())
        problem = resolveAllocatorRows(allocatorOptionsFor(p), models);
    if (!problem.empty()) {
        reportProblem(tr("Cannot sweep"), QString::fromStdString(problem));
        return false;
    }
    settings.trace = m_traceName.toStdString();
    const std::optional<SelectedBudget> previous = selectedBudget();
    m_requests = planSweepRows(settings, m_baseline, grid, models);
    m_sweepModel->reset(m_baseline, grid, m_requests, settings.policies.size() * models.size(),
                        settings.overheadLimit);
    m_settings.setSweepParameters(p);
    m_lastStep = p.step;
    // What earlier sessions ran shows at once; only the rest is replayed.
    const std::vector<IndexedResult> cached = m_cache.known(m_requests);
    m_sweepModel->addResults(cached);
    rebuildHoles();
    reselect(previous);
    std::vector<bool> done(m_requests.size(), false);
    for (const IndexedResult &r : cached)
        done[r.index] = true;
    m_jobIndices.clear();
    std::vector<RunRequest> todo;
    for (std::size_t i = 0; i < m_requests.size(); ++i)
        if (!done[i]) {
            m_jobIndices.push_back(i);
            todo.push_back(m_requests[i]);
        }
    m_controller.start(m_program, std::move(todo), p.threads);
    startSchedules(p);
    m_statusLabel->setText(tr("Sweeping %1 runs (%2 already known)…").arg(m_jobIndices.size()).arg(cached.size()));
    m_panel->setRunning(true);
    updateCancel();
    m_progress->show();
    return true;
}

void MainWindow::showResults(int job, const std::vector<IndexedResult> &results)
{
    if (job != m_controller.currentJob())
        return;
    std::vector<IndexedResult> placed;
    placed.reserve(results.size());
    for (const IndexedResult &r : results) {
        const std::size_t index = m_jobIndices[r.index];
        placed.push_back({index, r.result});
        m_cache.store(m_requests[index], r.result, m_baseline);
    }
    m_sweepModel->addResults(placed);
    rebuildHoles();
    if (const auto selected = m_strip->selection(); selected && !m_selectedInterval)
        showSelection(selected->policy, selected->column);
}

void MainWindow::showProgress(int job, std::size_t done, std::size_t total)
{
    if (job == m_controller.currentJob())
        showCountProgress(done, total, tr("%v of %m runs"));
}

void MainWindow::showCountProgress(std::size_t done, std::size_t total, const QString &format)
{
    m_progress->setRange(0, static_cast<int>(total));
    m_progress->setValue(static_cast<int>(done));
    m_progress->setFormat(format);
}

void MainWindow::showFinished(int job, bool cancelled, double seconds)
{
    if (job != m_controller.currentJob())
        return;
    m_panel->setRunning(m_scheduler.running());
    updateCancel();
    m_progress->setVisible(m_scheduler.running());
    const std::size_t holes = static_cast<std::size_t>(m_holeModel->rowCount());
    const std::size_t replayed = m_jobIndices.size();
    const std::size_t fromCache = static_cast<std::size_t>(m_sweepModel->rowCount()) - replayed;
    m_statusLabel->setText(
        cancelled
            ? tr("Sweep cancelled: %1 of %2 runs kept").arg(m_sweepModel->finishedCount()).arg(m_sweepModel->rowCount())
            : tr("%1 runs replayed in %2 s, %3 already known; %4 hole(s)")
                  .arg(replayed)
                  .arg(seconds, 0, 'f', 2)
                  .arg(fromCache)
                  .arg(holes));
    emit sweepFinished(cancelled);
}

// The checkpointing and optimal rows for the sweep's budgets, answered off the GUI thread.
void MainWindow::startSchedules(const SweepParameters &p)
{
    m_scheduler.cancel();
    m_scheduleRows->reset(p.checkpointing, p.optimal, m_sweepModel->gridSize());
    if (!p.checkpointing && !p.optimal)
        return;
    ScheduleController::Request request;
    request.program = m_program;
    request.traceHash = m_traceHash;
    for (std::size_t column = 0; column < m_sweepModel->gridSize(); ++column)
        request.budgets.push_back(m_sweepModel->request(0, column).config.budget);
    request.checkpointing = p.checkpointing;
    request.optimal = p.optimal;
    request.timeLimitSeconds = p.timeLimit.toDouble();
    m_scheduler.start(std::move(request));
    m_panel->setRunning(true);
    updateCancel();
    m_progress->show();
}

void MainWindow::showCheckpoint(int job, std::size_t column, const CheckpointAnswer &answer)
{
    if (job == m_scheduler.currentJob())
        m_scheduleRows->setCheckpoint(column, answer);
}

void MainWindow::showOptimal(int job, std::size_t column, const OptimalAnswer &answer)
{
    if (job != m_scheduler.currentJob())
        return;
    m_scheduleRows->setOptimal(column, answer);
    if (!answer.declined.empty())
        m_statusLabel->setText(tr("The optimal row is out of reach: %1").arg(QString::fromStdString(answer.declined)));
}

void MainWindow::showScheduleProgress(int job, std::size_t done, std::size_t total)
{
    // The sweep's or the map's progress has the bar while they run.
    if (job == m_scheduler.currentJob() && !m_controller.running() && !m_mapper.running())
        showCountProgress(done, total, tr("%v of %m schedule answers"));
}

void MainWindow::showSchedulesFinished(int job, bool cancelled, double seconds)
{
    if (job != m_scheduler.currentJob())
        return;
    if (!m_controller.running() && !m_mapper.running()) {
        m_panel->setRunning(false);
        m_progress->hide();
    }
    updateCancel();
    statusBar()->showMessage(cancelled ? tr("Schedule rows cancelled")
                                       : tr("Schedule rows answered in %1 s").arg(seconds, 0, 'f', 2),
                             5000);
    emit schedulesFinished(cancelled);
}

void MainWindow::showSelection(std::size_t policy, std::size_t column)
{
    if (policy >= m_sweepModel->policyCount() || column >= m_sweepModel->gridSize())
        return;
    m_detailsModel->setRun(m_sweepModel->request(policy, column), m_sweepModel->result(policy, column), m_baseline);
    if (m_selected != std::pair(policy, column) || m_selectedInterval)
        m_kept.reset(); // a kept-resident comparison belongs to the run it was made from
    m_selectedInterval.reset();
    m_selected = std::pair(policy, column);
    showHoleOf(policy, column);
    inspectSelection();
}

// The Holes table marks the hole the selected run (or interval) lies in, or nothing.
void MainWindow::showHoleOf(std::size_t policy, std::size_t column)
{
    for (int row = 0; row < m_holeModel->rowCount(); ++row) {
        const HoleListModel::Entry &entry = m_holeModel->entry(row);
        const bool inside =
            entry.exact ? m_selectedInterval && entry.exact->firstFail <= m_selectedInterval->config.budget &&
                              m_selectedInterval->config.budget <= entry.exact->lastFail
                        : !m_selectedInterval && entry.hole.firstFail <= column && column <= entry.hole.lastFail;
        if (entry.policy == policy && inside) {
            m_holeView->selectRow(row);
            m_holeView->scrollTo(m_holeModel->index(row, 0));
            return;
        }
    }
    m_holeView->clearSelection();
}

std::optional<MainWindow::SelectedBudget> MainWindow::selectedBudget() const
{
    if (!m_selected || m_selected->first >= m_sweepModel->policyCount() ||
        m_selected->second >= m_sweepModel->gridSize())
        return std::nullopt;
    return SelectedBudget{m_sweepModel->policyName(m_selected->first), m_sweepModel->grid()[m_selected->second].text};
}

// A new sweep keeps the selected run when its grid has that policy and budget; otherwise the
// selection, the timeline and the cascade are all cleared together.
void MainWindow::reselect(const std::optional<SelectedBudget> &previous)
{
    m_selected.reset();
    m_selectedInterval.reset();
    m_kept.reset();
    std::optional<FeasibilityStrip::Cell> cell;
    for (std::size_t policy = 0; previous && policy < m_sweepModel->policyCount(); ++policy)
        for (std::size_t column = 0; column < m_sweepModel->gridSize(); ++column)
            if (m_sweepModel->policyName(policy) == previous->policy &&
                m_sweepModel->grid()[column].text == previous->ratio)
                cell = FeasibilityStrip::Cell{policy, column};
    if (cell) {
        m_strip->setSelection(cell);
        return;
    }
    m_detailsModel->clear();
    m_holeView->clearSelection();
    m_inspector.cancel();
    m_inspectionKey.clear();
    clearRunViews();
}

namespace {

// What identifies a replay: the same key twice needs no second replay.
QString inspectionKey(const RunRequest &run, const std::optional<RunRequest> &comparison)
{
    const auto key = [](const RunRequest &r) {
        QStringList kept;
        for (const std::string &name : r.keep)
            kept << QString::fromStdString(name);
        return QStringLiteral("%1/%2/%3/%4/%5")
            .arg(QString::fromStdString(r.config.policy.name), QString::fromUtf8(runtimeName(r.config.runtime).data()))
            .arg(r.config.budget)
            .arg(r.config.rematLimit, 0, 'g', 17)
            .arg(kept.join(QLatin1Char(',')));
    };
    return key(run) + QStringLiteral(" | ") + (comparison ? key(*comparison) : QString());
}

} // namespace

// The run drawn dashed over the selected one: the same budget with storages kept resident when
// the user asked for it, else what the overlay menu says.
std::optional<RunRequest> MainWindow::comparisonFor(std::size_t policy, std::size_t column) const
{
    if (m_kept)
        return m_kept;
    if (m_selectedInterval && m_timeline->overlay() != TimelinePanel::Overlay::Pinned) {
        // The interval below ends one byte under lo; the one above starts at hi.
        const MappedRow *row = m_strip->mappedRow(policy);
        const RunResult *interval = row ? row->intervalAt(m_selectedInterval->config.budget) : nullptr;
        RunRequest neighbour = *m_selectedInterval;
        if (!interval || m_timeline->overlay() == TimelinePanel::Overlay::None)
            return std::nullopt;
        if (m_timeline->overlay() == TimelinePanel::Overlay::BudgetBelow && interval->interval.lo > 0)
            neighbour.config.budget = interval->interval.lo - 1;
        else if (m_timeline->overlay() == TimelinePanel::Overlay::BudgetAbove && interval->interval.hi)
            neighbour.config.budget = *interval->interval.hi;
        else
            return std::nullopt;
        neighbour.ratio = static_cast<double>(neighbour.config.budget) / static_cast<double>(m_baseline.memory);
        return neighbour;
    }
    switch (m_timeline->overlay()) {
    case TimelinePanel::Overlay::None:
        break;
    case TimelinePanel::Overlay::BudgetBelow:
        if (column > 0)
            return m_sweepModel->request(policy, column - 1);
        break;
    case TimelinePanel::Overlay::BudgetAbove:
        if (column + 1 < m_sweepModel->gridSize())
            return m_sweepModel->request(policy, column + 1);
        break;
    case TimelinePanel::Overlay::Pinned:
        return m_pinned;
    }
    return std::nullopt;
}

// The timeline follows the strip: the selected run is replayed again with a recorder, with
// the run it is overlaid on (the next budget below or above, or the pinned run).
void MainWindow::inspectSelection()
{
    if (!m_selected || !m_program)
        return;
    const auto [policy, column] = *m_selected;
    const std::optional<RunRequest> comparison = comparisonFor(policy, column);
    const RunRequest run = m_selectedInterval.value_or(m_sweepModel->request(policy, column));
    const QString key = inspectionKey(run, comparison);
    if (key == m_inspectionKey)
        return;
    m_inspectionKey = key;
    m_timeline->setBusy(true);
    m_inspector.inspect(m_program, run, comparison);
}

void MainWindow::showInspected(int job, std::shared_ptr<const InspectedRun> run,
                               std::shared_ptr<const InspectedRun> comparison)
{
    (void)job; // the inspector delivers only its newest job
    showCascade(run);
    m_inspected = {std::move(run), std::move(comparison)};
    buildTimeline();
    showMemoryMap(std::nullopt);
}

void MainWindow::showMemoryMap(std::optional<std::size_t> step)
{
    const std::shared_ptr<const InspectedRun> run = m_inspected.first;
    if (!run || !m_program) {
        m_memoryMapJobs.cancel();
        m_memoryMap->setStepsEnabled(false);
        m_memoryMap->view()->showMessage(tr("Select a run in the strip to see its memory map"));
        markMemoryMapStep();
        return;
    }
    if (run->request.config.allocator.isSum()) {
        m_memoryMapJobs.cancel();
        auto plot = std::make_shared<MemoryMapPlot>();
        plot->program = m_program;
        plot->request = run->request;
        m_memoryMap->setStepsEnabled(false);
        m_memoryMap->view()->setPlot(std::move(plot));
        markMemoryMapStep();
        emit memoryMapShown();
        return;
    }
    m_memoryMap->view()->showMessage(step ? tr("Replaying to step %1…").arg(*step) : tr("Replaying…"));
    markMemoryMapStep();
    m_memoryMapJobs.run(
        [program = m_program, run, step] {
            auto plot = std::make_shared<MemoryMapPlot>();
            plot->program = program;
            plot->request = run->request;
            if (const auto at = step ? step : defaultSnapshotStep(run->recording, run->result))
                plot->snapshot = snapshotAtStep(*program, run->request, *at);
            return std::shared_ptr<const MemoryMapPlot>(std::move(plot));
        },
        [this](std::shared_ptr<const MemoryMapPlot> plot) {
            m_memoryMap->setStepsEnabled(true);
            if (plot->snapshot)
                m_memoryMap->setSteps(m_program ? m_program->schedule.size() : 1, plot->snapshot->step);
            m_memoryMap->view()->setPlot(std::move(plot));
            markMemoryMapStep();
            emit memoryMapShown();
        });
}

// The timeline marks the step whose layout the memory map shows, while the dock is open and
// shows one.
void MainWindow::markMemoryMapStep()
{
    const std::shared_ptr<const MemoryMapPlot> &plot = m_memoryMap->view()->figure().plot();
    const bool shown = plot && plot->snapshot && !m_memoryMapDock->isHidden();
    m_timeline->view()->markStep(shown ? std::optional(std::uint32_t(plot->snapshot->step)) : std::nullopt);
}

// The plot (tracks, divergence) is built off the GUI thread; drawing it is all the window does.
void MainWindow::buildTimeline()
{
    const auto [run, comparison] = m_inspected;
    if (!run || !m_program)
        return;
    m_timelineJobs.run(
        [program = m_program, run, comparison, axis = m_timeline->axis()] {
            return std::make_shared<const TimelinePlot>(TimelinePlot::build(program, run, comparison, axis));
        },
        [this](std::shared_ptr<const TimelinePlot> plot) {
            m_timeline->showPlot(std::move(plot));
            emit timelineShown();
            prefetchNeighbours();
        });
}

// The runs of another trace or another sweep: nothing of the last selection may still arrive.
void MainWindow::clearRunViews()
{
    m_inspected = {};
    m_timelineJobs.cancel();
    m_timeline->clear();
    showCascade(nullptr);
    showMemoryMap(std::nullopt);
}

// While the user looks, the budgets the arrow keys lead to next (and what they would be
// overlaid on) are recorded ahead, so stepping through budgets shows each at once.
void MainWindow::prefetchNeighbours()
{
    if (!m_selected || !m_program || m_selectedInterval)
        return; // intervals: each is one replay away, recorded when selected
    const auto [policy, column] = *m_selected;
    std::vector<std::ptrdiff_t> offsets{1, -1};
    if (m_timeline->overlay() == TimelinePanel::Overlay::BudgetBelow)
        offsets.push_back(-2);
    else if (m_timeline->overlay() == TimelinePanel::Overlay::BudgetAbove)
        offsets.push_back(2);
    std::vector<RunRequest> neighbours;
    for (std::ptrdiff_t offset : offsets) {
        const std::ptrdiff_t c = std::ptrdiff_t(column) + offset;
        if (c >= 0 && std::size_t(c) < m_sweepModel->gridSize())
            neighbours.push_back(m_sweepModel->request(policy, std::size_t(c)));
    }
    m_inspector.prefetch(m_program, std::move(neighbours));
}

void MainWindow::showCascade(const std::shared_ptr<const InspectedRun> &run, std::optional<std::size_t> focusEvent)
{
    m_shownRun = run;
    if (!run || !m_program) {
        m_cascadeJobs.cancel();
        m_cascade->showMessage(tr("Select a run in the strip to see its cascade"));
        return;
    }
    CascadeLook look; // on screen, boxes read at the window's text size
    look.fontSize = QFontInfo(m_cascade->font()).pixelSize();
    m_cascade->showMessage(tr("Laying out the cascade…"));
    m_cascadeJobs.run(
        [program = m_program, run, focusEvent, look] {
            CascadeOptions options;
            options.focusEvent = focusEvent;
            return std::make_shared<const CascadeDiagram>(
                CascadeDiagram::forRun(program, run->request, run->result, run->recording, options, look));
        },
        [this](std::shared_ptr<const CascadeDiagram> diagram) { m_cascade->setDiagram(*diagram); });
}

// The cascade's "keep resident and rerun": the selected run again with that storage kept (and
// any kept before), drawn dashed over the selected run in the timeline, so the strip, the
// Holes table, the details, the timeline and the cascade still show the selected run. Undo
// (Ctrl+Z) or selecting another run drops the comparison.
void MainWindow::rerunKeeping(TensorId tensor)
{
    if (!m_selected || !m_program || tensor >= m_program->tensors.size())
        return;
    RunRequest request = m_kept.value_or(*selectedRequest());
    if (std::find(request.config.keepResident.begin(), request.config.keepResident.end(), tensor) ==
        request.config.keepResident.end()) {
        request.config.keepResident.push_back(tensor);
        request.keep.push_back(m_program->tensors[tensor].name);
    }
    QStringList kept;
    for (const std::string &name : request.keep)
        kept << QString::fromStdString(name);
    m_kept = request;
    m_undoKeep->setEnabled(true);
    statusBar()->showMessage(tr("Replaying with %1 kept resident; the timeline draws it dashed (Ctrl+Z undoes)")
                                 .arg(kept.join(QStringLiteral(", "))),
                             8000);
    inspectSelection();
}

// Every view, the figures exported from them included, reads bytes in the units chosen.
void MainWindow::setDecimalUnits(bool decimal)
{
    m_settings.setDecimalUnits(decimal);
    ByteUnits::setSystem(decimal ? UnitSystem::Decimal : UnitSystem::Binary);
    if (m_program)
        m_summaryModel->setSummary(m_summary);
    if (m_selectedInterval)
        showInterval(m_selected->first, m_selectedInterval->config.budget);
    else if (m_selected)
        m_detailsModel->setRun(m_sweepModel->request(m_selected->first, m_selected->second),
                               m_sweepModel->result(m_selected->first, m_selected->second), m_baseline);
    m_strip->update();
    m_timeline->view()->refresh();
    if (m_shownRun)
        showCascade(m_shownRun);
}

void MainWindow::undoKeep()
{
    if (!m_kept)
        return;
    m_kept.reset();
    m_undoKeep->setEnabled(false);
    statusBar()->showMessage(tr("Back to the selected run without kept storages"), 4000);
    inspectSelection();
}

void MainWindow::pinShownRun()
{
    const TimelinePlot &plot = m_timeline->view()->plot();
    if (plot.empty()) {
        statusBar()->showMessage(tr("Select a run in the strip first"), 4000);
        return;
    }
    m_pinned = plot.run->request;
    statusBar()->showMessage(tr("Pinned %1; it is overlaid on the runs you select").arg(plot.runLabel(*plot.run)),
                             5000);
    if (m_timeline->overlay() == TimelinePanel::Overlay::Pinned)
        inspectSelection();
    else
        m_timeline->setOverlay(TimelinePanel::Overlay::Pinned);
}

void MainWindow::refine(std::size_t firstColumn, std::size_t lastColumn)
{
    const auto &grid = m_sweepModel->grid();
    if (lastColumn >= grid.size() || firstColumn > lastColumn)
        return;
    SweepParameters p = m_panel->parameters();
    p.from = QString::fromStdString(grid[firstColumn].text);
    p.to = QString::fromStdString(grid[lastColumn].text);
    p.step = finerStep(m_lastStep.isEmpty() ? p.step : m_lastStep);
    m_panel->setParameters(p);
    startSweep();
}

void MainWindow::jumpToHole(const QModelIndex &index)
{
    if (!index.isValid())
        return;
    const HoleListModel::Entry &entry = m_holeModel->entry(index.row());
    if (entry.exact)
        m_strip->selectInterval(entry.policy, entry.exact->firstFail);
    else
        m_strip->setSelection(FeasibilityStrip::Cell{entry.policy, entry.hole.firstFail});
    m_strip->setFocus();
}

// ~QWidget hides the docks after MainWindow's part of the object is gone: the memory map dock
// reporting itself hidden must not reach markMemoryMapStep then.
MainWindow::~MainWindow()
{
    disconnect(m_memoryMapDock, nullptr, this, nullptr);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    m_controller.cancel();
    m_mapper.cancel();
    m_settings.setWindowGeometry(saveGeometry());
    m_settings.setWindowState(saveState());
    m_settings.setCentreState(m_centre->saveState());
    m_settings.setSweepParameters(m_panel->parameters());
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.first().isLocalFile())
        openTrace(urls.first().toLocalFile());
}

} // namespace rematlens

namespace rematlens {

void MainWindow::cancelJobs()
{
    m_controller.cancel();
    m_mapper.cancel();
    m_scheduler.cancel();
}

// Cancel (the status bar's button, the menu's and the toolbar's action) is offered only while a
// sweep, a map or the schedule rows run.
void MainWindow::updateCancel()
{
    const bool running = m_controller.running() || m_mapper.running() || m_scheduler.running();
    m_cancelButton->setVisible(running);
    m_cancelAction->setEnabled(running);
}

void MainWindow::rebuildHoles()
{
    m_holeModel->rebuild(*m_sweepModel, m_mapModel);
    m_holeView->resizeColumnsToContents();
}

std::optional<RunRequest> MainWindow::selectedRequest() const
{
    if (m_selectedInterval)
        return m_selectedInterval;
    if (!m_selected || m_selected->first >= m_sweepModel->policyCount() || m_selected->second >= m_sweepModel->gridSize())
        return std::nullopt;
    return m_sweepModel->request(m_selected->first, m_selected->second);
}

// The marked range of the strip, else every budget of the sweep shown, in bytes.
std::optional<ByteRange> MainWindow::rangeToMap() const
{
    if (m_sweepModel->gridSize() == 0 || m_sweepModel->policyCount() == 0)
        return std::nullopt;
    std::size_t first = 0;
    std::size_t last = m_sweepModel->gridSize() - 1;
    if (const auto marked = m_strip->range()) {
        first = marked->first;
        last = std::min(marked->second, last);
    }
    return ByteRange{m_sweepModel->request(0, first).config.budget, m_sweepModel->request(0, last).config.budget + 1};
}

bool MainWindow::startMap()
{
    const std::optional<ByteRange> range = rangeToMap();
    if (!m_program || !range) {
        statusBar()->showMessage(tr("Sweep first: a map draws over the strip's rows, for their policies"), 5000);
        return false;
    }
    if (m_controller.running()) {
        statusBar()->showMessage(tr("A sweep is running: wait for it or cancel it (Ctrl+.) before mapping"), 5000);
        return false;
    }
    std::vector<MapJobRow> rows;
    for (std::size_t p = 0; p < m_sweepModel->policyCount(); ++p) {
        const RunRequest &request = m_sweepModel->request(p, 0);
        if (const std::string problem = mapProblem(request.config); !problem.empty()) {
            reportProblem(tr("Cannot map exactly"), QString::fromStdString(problem));
            return false;
        }
        MapJobRow row{ExactMapModel::keyOf(request), request.config, {}};
        if (const MappedRow *known = m_mapModel->row(row.key))
            for (const RunResult &r : known->intervals)
                row.known.push_back(r.interval);
        rows.push_back(std::move(row));
    }
    m_mapKeys.clear();
    for (const MapJobRow &row : rows)
        m_mapKeys.push_back(row.key);
    m_mapRange = *range;
    for (const QString &key : m_mapKeys)
        m_mapCache.storeRange(key, *range);
    m_mapper.start(m_program, std::move(rows), *range, m_panel->parameters().threads);
    const QLocale c = numberLocale();
    m_statusLabel->setText(tr("Mapping %1 to %2 B exactly for %3 policies…")
                               .arg(c.toString(range->from), c.toString(range->end - 1))
                               .arg(m_mapKeys.size()));
    updateCancel();
    m_progress->show();
    return true;
}

void MainWindow::showMapIntervals(int job, const QString &key, ByteRange range, const std::vector<RunResult> &intervals)
{
    if (job != m_mapper.currentJob())
        return;
    m_mapModel->add(key, range, intervals);
    m_mapCache.storeIntervals(key, intervals, m_baseline);
    rebuildHoles();
}

void MainWindow::showMapProgress(int job, qint64 mapped, qint64 total)
{
    if (job != m_mapper.currentJob())
        return;
    m_progress->setRange(0, 1000);
    m_progress->setValue(total > 0 ? static_cast<int>(1000.0 * static_cast<double>(mapped) / static_cast<double>(total)) : 1000);
    m_progress->setFormat(tr("%1 % of budgets mapped").arg(m_progress->value() / 10.0, 0, 'f', 1));
}

// Every row of the job gets its range, so budgets never reached show as unmapped.
void MainWindow::showMapFinished(int job, bool cancelled, double seconds, std::size_t replays)
{
    if (job != m_mapper.currentJob())
        return;
    std::size_t intervals = 0;
    Bytes unmapped = 0;
    std::size_t holes = 0;
    for (const QString &key : m_mapKeys) {
        m_mapModel->add(key, m_mapRange, {});
        const MappedRow *row = m_mapModel->row(key);
        intervals += row->summary.intervals;
        holes += row->summary.holes.size();
        for (const ByteRange &gap : row->summary.unmapped)
            unmapped += gap.size();
    }
    rebuildHoles();
    if (!m_controller.running())
        m_progress->hide();
    updateCancel();
    const QLocale c = numberLocale();
    m_statusLabel->setText(cancelled ? tr("Map cancelled: %1 intervals kept, %2 B unmapped (hatched)")
                                           .arg(c.toString(static_cast<qulonglong>(intervals)), c.toString(unmapped))
                                     : tr("Mapped exactly: %1 intervals, %2 replays in %3 s; %4 hole(s)")
                                           .arg(c.toString(static_cast<qulonglong>(intervals)))
                                           .arg(replays)
                                           .arg(seconds, 0, 'f', 2)
                                           .arg(holes));
    emit mapFinished(cancelled);
}

// An interval of a mapped row selected: the details, the timeline and the cascade show the
// replay at its lowest budget (every budget in it replays the same).
void MainWindow::showInterval(std::size_t policy, qint64 lo)
{
    const MappedRow *row = m_strip->mappedRow(policy);
    const RunResult *interval = row ? row->intervalAt(lo) : nullptr;
    if (!interval)
        return;
    RunRequest request = m_sweepModel->request(policy, 0);
    request.config.budget = interval->interval.lo;
    request.ratio = m_baseline.memory > 0 ? static_cast<double>(request.config.budget) / static_cast<double>(m_baseline.memory) : 0;
    if (!m_selectedInterval || m_selectedInterval->config.budget != request.config.budget)
        m_kept.reset();
    m_selectedInterval = request;
    if (const auto cell = m_strip->selection())
        m_selected = std::pair(cell->policy, cell->column);
    m_detailsModel->setRun(request, *interval, m_baseline);
    showHoleOf(policy, m_selected ? m_selected->second : 0);
    inspectSelection();
}

} // namespace rematlens
