#include "main_window.h"
#include "app/requests/request_reporter.h"

#include "help_window.h"
#include "hole_anatomy_coordinator.h"
#include "hole_anatomy_panel.h"
#include "job_status_bar.h"
#include "map_coordinator.h"
#include "policy_editor_dialog.h"
#include "run_views_controller.h"
#include "schedule_rows_coordinator.h"
#include "screen_fit.h"
#include "selected_run_presenter.h"
#include "session_controller.h"
#include "shortcut_table.h"
#include "strip_status.h"
#include "sweep_coordinator.h"
#include "window_docks.h"
#include "window_exports.h"
#include "window_menus.h"

#include "app/requests/grid_options.h"
#include "app/requests/run_options.h"
#include "app/formats/trace_source.h"
#include "views/cascade/cascade_view.h"
#include "views/common/byte_units.h"
#include "views/common/run_selection.h"
#include "views/common/trace_name.h"
#include "views/memory/memory_map_panel.h"
#include "views/strip/feasibility_strip.h"
#include "views/sweep/sweep_panel.h"
#include "views/tables/exact_map_model.h"
#include "views/tables/hole_list_model.h"
#include "views/tables/run_details_model.h"
#include "views/tables/schedule_rows_model.h"
#include "views/tables/sweep_result_model.h"
#include "views/tables/trace_summary_model.h"
#include "views/timeline/timeline_panel.h"
#include "views/timeline/timeline_view.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScopedValueRollback>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>

namespace rematlens {

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent), m_selection(new RunSelection(this)), m_scheduleRows(new ScheduleRowsModel(this)),
      m_summaryModel(new TraceSummaryModel(this)), m_sweepModel(new SweepResultModel(this)),
      m_holeModel(new HoleListModel(this)), m_mapModel(new ExactMapModel(this)), m_detailsModel(new RunDetailsModel(this)),
      m_strip(new FeasibilityStrip(this)), m_panel(new SweepPanel(this)), m_timeline(new TimelinePanel(this)),
      m_cascade(new CascadeView(this)), m_memoryMap(new MemoryMapPanel(this)), m_holeAnatomy(new HoleAnatomyPanel(this)), m_viewTabs(new QTabWidget(this)),
      m_centre(new QSplitter(this))
{
    setWindowTitle(tr("RematLens"));
    ByteUnits::setSystem(m_settings.decimalUnits() ? UnitSystem::Decimal : UnitSystem::Binary);
    setAcceptDrops(true);
    setDockNestingEnabled(true);
    m_strip->setModels(m_sweepModel, m_holeModel);
    m_strip->setExactMaps(m_mapModel);
    m_strip->setScheduleRows(m_scheduleRows);
    m_strip->setRunSelection(m_selection);
    setCentralWidget(createCentre());
    m_exports = new WindowExports(*this, m_settings, *m_sweepModel);
    registerFigureView(tr("Feasibility strip"), m_strip);
    registerFigureView(tr("Memory timeline"), m_timeline->view());
    registerFigureView(tr("Cascade"), m_cascade);
    registerFigureView(tr("Memory map"), m_memoryMap->view());
    m_docks = new WindowDocks(*this, {m_summaryModel, m_holeModel, m_detailsModel, m_sweepModel, m_panel, m_memoryMap, m_holeAnatomy});
    m_holeView = m_docks->holeView();
    m_memoryMapDock = m_docks->memoryMapDock();
    m_status = new JobStatusBar(statusBar(), this);
    m_stripStatus = new StripStatus(statusBar(), *m_sweepModel, *m_mapModel, *m_holeModel, this);
    m_menus = new WindowMenus(*this, m_docks->toggleActions());
    m_status->setCancelAction(m_menus->cancelAction());
    createParts();
    for (const QString &expression : m_settings.userExpressions())
        m_panel->addPolicy(QStringLiteral("expr:") + expression, false);
    m_panel->setParameters(m_settings.sweepParameters());
    connectParts();
    m_timeline->setAxis(TimelineAxis(m_settings.timelineAxis()));
    m_timeline->setOverlay(TimelinePanel::Overlay(m_settings.timelineOverlay()));

    // The first start fits the screen it opens on; later ones come back as they were left.
    if (!restoreGeometry(m_settings.windowGeometry()))
        fitToScreen(this, QSize(1400, 850));
    m_docks->holeAnatomyDock()->hide(); // until a hole is first selected, or restoreState says it was open
    if (!restoreState(m_settings.windowState()))
        m_memoryMapDock->hide(); // nothing to show until a run under an allocator model is selected
    m_centre->restoreState(m_settings.centreState());
}

// ~QWidget hides the docks after the window's part of the object is gone: the views' controller
// goes first, so the memory map dock reporting itself hidden reaches nothing then.
MainWindow::~MainWindow()
{
    delete m_runViews;
}

void MainWindow::createParts()
{
    m_sweeps = new SweepCoordinator({m_panel, m_sweepModel, m_selection, &m_settings, m_status}, this);
    m_maps = new MapCoordinator(*m_sweepModel, *m_mapModel, *m_status, this);
    m_schedules = new ScheduleRowsCoordinator(*m_scheduleRows, *m_sweepModel, *m_status, this);
    m_runViews = new RunViewsController(*m_selection, *m_sweepModel, *m_mapModel,
                                        {m_timeline, m_cascade, m_memoryMap, m_memoryMapDock}, this);
    m_holeStories = new HoleAnatomyCoordinator(
        {m_selection, m_sweepModel, m_mapModel, m_holeModel, m_runViews, m_holeAnatomy, m_docks->holeAnatomyDock(),
         [this] { return m_panel->parameters().threads; }, [this] { m_docks->showHoleAnatomy(); }},
        this);
    registerFigureView(tr("Hole anatomy"), &m_holeStories->figure());
    m_holeAnatomy->setRescue(m_settings.holeAnatomyRescue());
    m_holeStories->setRescue(m_settings.holeAnatomyRescue());
    connect(m_holeAnatomy, &HoleAnatomyPanel::rescueToggled, this, [this](bool on) { m_settings.setHoleAnatomyRescue(on); });
    m_presenter = new SelectedRunPresenter(
        {m_selection, m_sweepModel, m_mapModel, m_holeModel, m_detailsModel, m_holeView}, this);
    m_sessions = new SessionController(*this);
    m_sessions->setStripViewAccess([this] { return m_strip->viewedRatios(); },
                                   [this](const SessionState::Range &r) { m_strip->showRatios(r.first, r.second); });
}

// Who answers whom: the loader and the coordinators feed the models; the views' requests come
// back to the coordinators; the one selection reaches every view that shows a run.
void MainWindow::connectParts()
{
    connect(&m_loader, &TraceLoader::loaded, this, &MainWindow::showLoaded);
    connect(&m_loader, &TraceLoader::failed, this, &MainWindow::showFailure);
    connect(m_panel, &SweepPanel::sweepRequested, this, &MainWindow::startSweep);
    connect(m_panel, &SweepPanel::cancelRequested, this, &MainWindow::cancelJobs);
    connect(m_panel, &SweepPanel::policyEditorRequested, this, &MainWindow::editCustomPolicy);
    connect(m_status, &JobStatusBar::cancelRequested, this, &MainWindow::cancelJobs);
    connect(m_sessions, &SessionController::problem, this, &MainWindow::reportProblem);
    connect(m_exports, &WindowExports::problem, this, &MainWindow::reportProblem);

    connect(m_sweeps, &SweepCoordinator::started, this, [this] {
        rebuildHoles();
        offerMemoryMap();
        m_schedules->start(m_program, m_traceHash, m_panel->parameters());
    });
    connect(m_sweeps, &SweepCoordinator::resultsChanged, this, &MainWindow::rebuildHoles);
    connect(m_sweeps, &SweepCoordinator::runningChanged, this, &MainWindow::updateRunning);
    connect(m_sweeps, &SweepCoordinator::finished, this, &MainWindow::sweepFinished);
    connect(m_maps, &MapCoordinator::intervalsChanged, this, &MainWindow::rebuildHoles);
    connect(m_maps, &MapCoordinator::runningChanged, this, &MainWindow::updateRunning);
    connect(m_maps, &MapCoordinator::finished, this, &MainWindow::mapFinished);
    connect(m_maps, &MapCoordinator::message, statusBar(), &QStatusBar::showMessage);
    connect(m_maps, &MapCoordinator::settled, this, &MainWindow::knownMapsShown);
    connect(m_maps, &MapCoordinator::readingKnownMaps, m_stripStatus, [this] { m_stripStatus->setReadingKnownMaps(true); });
    connect(m_maps, &MapCoordinator::settled, m_stripStatus, [this] { m_stripStatus->setReadingKnownMaps(false); });
    connect(m_schedules, &ScheduleRowsCoordinator::runningChanged, this, &MainWindow::updateRunning);
    connect(m_schedules, &ScheduleRowsCoordinator::finished, this, &MainWindow::schedulesFinished);
    connect(m_schedules, &ScheduleRowsCoordinator::message, statusBar(), &QStatusBar::showMessage);

    connect(m_strip, &FeasibilityStrip::refineRequested, this, [this](std::size_t first, std::size_t last) {
        if (const QString problem = m_sweeps->refine(first, last); !problem.isEmpty())
            reportProblem(tr("Cannot sweep"), problem);
    });
    connect(m_timeline, &TimelinePanel::overlayChanged, this,
            [this](TimelinePanel::Overlay overlay) { m_settings.setTimelineOverlay(int(overlay)); });
    connect(m_timeline, &TimelinePanel::axisChanged, this,
            [this](TimelineAxis axis) { m_settings.setTimelineAxis(int(axis)); });
    connect(m_cascade, &CascadeView::momentActivated, this, [this](std::uint32_t step, Cost) {
        m_viewTabs->setCurrentWidget(m_timeline);
        m_timeline->view()->showStep(step);
    });
    connect(m_runViews, &RunViewsController::timelineShown, this, &MainWindow::timelineShown);
    connect(m_runViews, &RunViewsController::memoryMapShown, this, &MainWindow::memoryMapShown);
    connect(m_runViews, &RunViewsController::message, statusBar(), &QStatusBar::showMessage);
    connect(m_holeStories, &HoleAnatomyCoordinator::message, statusBar(), &QStatusBar::showMessage);
    connect(m_holeStories, &HoleAnatomyCoordinator::runningChanged, this, &MainWindow::updateRunning);
    // The status bar's bar follows the story while nothing else runs.
    connect(&m_holeStories->controller(), &HoleAnatomyController::progress, this,
            [this](int, const QString &, qint64 done, qint64 total) {
                if (!sweepRunning() && !mapRunning() && !schedulesRunning())
                    m_status->showProgress(done, total, total > 0 ? tr("hole: %v of %m") : tr("explaining the hole"));
            });
    connect(m_holeStories, &HoleAnatomyCoordinator::explained, this, &MainWindow::holeExplained);
    connect(m_holeAnatomy, &HoleAnatomyPanel::exportRequested, this, [this] { m_exports->exportFigure(tr("Hole anatomy")); });
    // A tensor's link builds the cascade around it: that tab comes to the front; a step's, the timeline.
    connect(m_holeAnatomy, &HoleAnatomyPanel::linkActivated, this, [this](const HoleLink &link) {
        showViewTab(link.kind == HoleLink::Kind::Tensor ? 1 : 0);
    });
    connect(m_runViews, &RunViewsController::keptChanged, m_menus->undoKeepAction(), &QAction::setEnabled);
    connect(m_sweepModel, &QAbstractItemModel::dataChanged, m_presenter, &SelectedRunPresenter::refresh);
    // Enter jumps to the hole and hands the keys to the strip; a click leaves them with the
    // table (its arrows move between holes, Ctrl+C copies them).
    connect(m_holeView, &QTableView::activated, this, [this](const QModelIndex &index) {
        jumpToHole(index);
        m_strip->setFocus();
    });
    connect(m_holeView, &QTableView::clicked, this, &MainWindow::jumpToHole);
    // The table's arrows move between holes as clicks do; the selection's own marking of its
    // hole (the table without the keys) and a press of the mouse (the click follows) do not jump.
    connect(m_holeView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (m_holeView->hasFocus() && QApplication::mouseButtons() == Qt::NoButton)
                    jumpToHole(current);
            });
}

// The side columns and the memory map (WindowDocks), then the strip over the timeline.
void MainWindow::arrangeDocks()
{
    m_docks->arrange();
    const int centre = m_centre->height();
    m_centre->setSizes({centre * 2 / 5, centre * 3 / 5});
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
    m_timeline->setMinimumHeight(fontMetrics().height() * 12);
    m_centre->setObjectName(QStringLiteral("centreSplitter"));
    m_centre->setOrientation(Qt::Vertical);
    m_centre->setChildrenCollapsible(false);
    auto *stripScroll = new QScrollArea(this);
    stripScroll->setObjectName(QStringLiteral("stripScroll"));
    stripScroll->setWidget(m_strip);
    stripScroll->setWidgetResizable(true);
    stripScroll->setFrameShape(QFrame::NoFrame);
    stripScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_centre->addWidget(stripScroll);
    m_centre->addWidget(m_viewTabs);
    m_centre->setStretchFactor(0, 2);
    m_centre->setStretchFactor(1, 3);
    return m_centre;
}

void MainWindow::showViewTab(int index)
{
    m_viewTabs->setCurrentIndex(index);
}

void MainWindow::registerFigureView(const QString &name, const FigureSource *source)
{
    m_exports->registerView(name, source);
}

const std::vector<FigureView> &MainWindow::figureViews() const
{
    return m_exports->views();
}

void MainWindow::exportFigure()
{
    m_exports->exportFigure();
}

void MainWindow::exportRuns()
{
    m_exports->exportRuns(m_tracePath);
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
    cancelJobs();
    m_scheduleRows->reset(false, false, 0);
    m_program = result.program;
    m_traceName = result.summary.name;
    m_traceHash = result.contentHash;
    m_summary = result.summary;
    m_sweeps->setTrace(m_program, result.summary.baseline, m_traceName, m_traceHash);
    m_maps->setTrace(m_program, result.summary.baseline, m_traceHash);
    m_runViews->setProgram(m_program);
    m_holeStories->setProgram(m_program);
    m_strip->setTraceName(shortTraceName(result.summary.name));
    m_summaryModel->setSummary(result.summary);
    m_timeline->setSideFile(result.summary.sideFile);
    m_docks->summaryView()->resizeColumnToContents(0);
    rebuildHoles();
    m_status->setText({});
    setWindowTitle(tr("%1 — RematLens").arg(result.summary.name));
    statusBar()->showMessage(tr("Read %1 in %2 ms").arg(result.summary.name).arg(result.milliseconds, 0, 'f', 1), 5000);
    const bool demo = m_pendingPath == QLatin1String(kDemoTraceName);
    m_tracePath = demo ? m_pendingPath : QFileInfo(m_pendingPath).absoluteFilePath();
    m_settings.setLastTrace(m_tracePath);
    if (!demo) {
        m_settings.addRecentTrace(m_tracePath);
        m_menus->refreshRecent();
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

void MainWindow::setSweepParameters(const SweepParameters &parameters)
{
    m_panel->setParameters(parameters);
}

void MainWindow::setAllocatorOptions(const AllocatorOptions &options)
{
    m_sweeps->setAllocatorOptions(options);
}

void MainWindow::chooseAllocatorModels(const AllocatorOptions &options)
{
    m_sweeps->chooseAllocatorModels(options);
}

bool MainWindow::startSweep()
{
    m_maps->cancel(); // what it mapped stays
    if (const QString problem = m_sweeps->start(); !problem.isEmpty()) {
        reportProblem(tr("Cannot sweep"), problem);
        return false;
    }
    return true;
}

bool MainWindow::startMap()
{
    if (m_sweeps->running()) {
        statusBar()->showMessage(tr("A sweep is running: wait for it or cancel it (Ctrl+.) before mapping"), 5000);
        return false;
    }
    QStringList skipped;
    if (const QString problem = m_maps->start(m_strip->range(), m_panel->parameters().threads, skipped);
        !problem.isEmpty()) {
        reportProblem(tr("Cannot map exactly"), problem);
        return false;
    }
    if (!skipped.isEmpty())
        statusBar()->showMessage(tr("Not mapped, kept as swept: %1").arg(skipped.join(QStringLiteral("; "))), 12000);
    return true;
}

void MainWindow::refineMarkedRange()
{
    const auto range = m_strip->range();
    if (!range) {
        statusBar()->showMessage(tr("Drag across budgets in the strip with Shift held to mark a range first"), 4000);
        return;
    }
    if (const QString problem = m_sweeps->refine(range->first, range->second); !problem.isEmpty())
        reportProblem(tr("Cannot sweep"), problem);
}

void MainWindow::cancelJobs()
{
    m_sweeps->cancel();
    m_maps->cancel();
    m_schedules->cancel();
    m_holeStories->cancel();
}

bool MainWindow::sweepRunning() const
{
    return m_sweeps->running();
}

bool MainWindow::mapRunning() const
{
    return m_maps->running();
}

bool MainWindow::knownMapsPending() const
{
    return m_maps->settling();
}

bool MainWindow::schedulesRunning() const
{
    return m_schedules->running();
}

// Cancel (the status bar's button, the menu's and the toolbar's action) and the progress bar
// show only while a sweep, a map or the schedule rows run.
void MainWindow::updateRunning()
{
    const bool running = sweepRunning() || mapRunning() || schedulesRunning() || holeAnatomyBusy();
    m_status->setRunning(running);
    m_panel->setRunning(sweepRunning() || schedulesRunning());
}

// The memory map dock starts closed (a byte sum has no layout to show) and opens, once, when a
// sweep first has rows under an allocator model.
void MainWindow::offerMemoryMap()
{
    if (m_memoryMapOffered || !m_memoryMapDock->isHidden())
        return;
    for (std::size_t row = 0; row < m_sweepModel->policyCount(); ++row)
        if (m_sweepModel->rowIdentity(row).allocator != allocatorKey(AllocatorConfig{})) {
            m_memoryMapOffered = true;
            m_memoryMapDock->show();
            return;
        }
}

void MainWindow::rebuildHoles()
{
    m_holeModel->rebuild(*m_sweepModel, m_mapModel);
    m_docks->fitHoleColumns();
    m_presenter->refresh();
}

std::optional<RunRequest> MainWindow::selectedRequest() const
{
    if (const std::optional<SelectedRun> &run = m_selection->current())
        return run->request;
    return std::nullopt;
}

QDockWidget *MainWindow::holeAnatomyDock() const
{
    return m_docks->holeAnatomyDock();
}

bool MainWindow::holeAnatomyBusy() const
{
    return m_holeStories->running();
}

const RunInspector &MainWindow::inspector() const
{
    return m_runViews->inspector();
}

bool MainWindow::cascadeBusy() const
{
    return m_runViews->cascadeBusy();
}

bool MainWindow::memoryMapBusy() const
{
    return m_runViews->memoryMapBusy();
}

void MainWindow::showMemoryMap(std::optional<std::size_t> step)
{
    m_runViews->showMemoryMap(step);
}

void MainWindow::undoKeep()
{
    m_runViews->undoKeep();
}

const std::optional<RunRequest> &MainWindow::pinnedRun() const
{
    return m_runViews->pinnedRun();
}

void MainWindow::setPinnedRun(const RunRequest &run)
{
    m_runViews->setPinnedRun(run);
}

HelpWindow *MainWindow::showHelp(const QString &anchor)
{
    if (!m_help) // built once every menu exists, so its shortcut table lists them all
        m_help = new HelpWindow(ShortcutTable(*this).toMarkdown(), this);
    m_help->show();
    m_help->raise();
    m_help->activateWindow();
    m_help->showSection(anchor); // the top when no section is named
    return m_help;
}

// Every view, the figures exported from them included, reads bytes in the units chosen.
void MainWindow::setDecimalUnits(bool decimal)
{
    m_settings.setDecimalUnits(decimal);
    ByteUnits::setSystem(decimal ? UnitSystem::Decimal : UnitSystem::Binary);
    if (m_program)
        m_summaryModel->setSummary(m_summary);
    m_presenter->refresh();
    m_strip->update();
    m_runViews->refreshUnits();
}

void MainWindow::jumpToHole(const QModelIndex &index)
{
    if (!index.isValid() || m_jumpingToHole)
        return;
    const QScopedValueRollback<bool> jumping(m_jumpingToHole, true);
    const HoleListModel::Entry &entry = m_holeModel->entry(index.row());
    if (entry.exact)
        m_strip->selectInterval(entry.policy, entry.exact->firstFail);
    else
        m_strip->setSelection(FeasibilityStrip::Cell{entry.policy, entry.hole.firstFail});
    m_holeStories->showHole(index.row()); // the row names the hole even when its run is selected already
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    cancelJobs();
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
