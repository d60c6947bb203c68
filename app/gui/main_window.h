#pragma once

#include "app_settings.h"
#include "export_figure_dialog.h"
#include "latest_job_runner.h"
#include "map_cache.h"
#include "map_controller.h"
#include "run_inspector.h"
#include "schedule_controller.h"
#include "sweep_cache.h"
#include "sweep_controller.h"
#include "trace_loader.h"

#include "app/cli/allocator_options.h"
#include "core/sweep/sweep_plan.h"

#include <QMainWindow>

#include <array>
#include <functional>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QSplitter;
class QTabWidget;
class QTableView;
class QToolButton;

namespace rematlens {

class FeasibilityStrip;
class HoleListModel;
class RunDetailsModel;
class SweepPanel;
class SweepResultModel;
class CascadeView;
class MemoryMapPanel;
class ExactMapModel;
class HelpWindow;
class ScheduleRowsModel;
class SessionController;
class TimelinePanel;
class TraceSummaryModel;

// The RematLens window: a trace (menu, recent files, drag and drop, command line), its summary,
// the sweep controls, the feasibility strip, the holes and the selected run.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    void openTrace(const QString &pathOrDemo);
    // Sweeps with the panel's parameters; an error dialog (or message) when they are invalid.
    bool startSweep();
    void setSweepParameters(const SweepParameters &parameters);
    // The capacity and caching options of the allocator models the panel chooses (from the
    // command line; the models and the eviction coupling are the panel's).
    void setAllocatorOptions(const AllocatorOptions &options) { m_allocatorOptions = options; }
    // The command line's --allocator (and --eviction) choose the panel's models too; under the
    // plain byte sum the panel keeps its own choice.
    void chooseAllocatorModels(const AllocatorOptions &options);
    FeasibilityStrip *strip() const { return m_strip; }
    const SweepResultModel *sweepModel() const { return m_sweepModel; }
    bool sweepRunning() const { return m_controller.running(); }
    // Map Exactly (Ctrl+M): every budget of the marked range (or of the sweep's range) for each
    // policy of the strip, off the GUI thread; false, with the reason shown, when it cannot.
    bool startMap();
    bool mapRunning() const { return m_mapper.running(); }
    // The strip's checkpointing and optimal rows, computed off the GUI thread after a sweep starts.
    bool schedulesRunning() const { return m_scheduler.running(); }
    const ScheduleRowsModel *scheduleRows() const { return m_scheduleRows; }
    void cancelJobs();
    const ExactMapModel *exactMaps() const { return m_mapModel; }
    const HoleListModel *holeModel() const { return m_holeModel; }
    // The run the timeline and the cascade show: a grid run, or an interval replayed at its lo.
    std::optional<RunRequest> selectedRequest() const;
    TimelinePanel *timeline() const { return m_timeline; }
    const RunInspector &inspector() const { return m_inspector; }
    // Views offered by File > Export Figure; a view registers itself with one line here.
    void registerFigureView(const QString &name, const FigureSource *source);
    const std::vector<FigureView> &figureViews() const { return m_figureViews; }
    void exportFigure();
    CascadeView *cascade() const { return m_cascade; }
    MemoryMapPanel *memoryMap() const { return m_memoryMap; }
    QDockWidget *memoryMapDock() const { return m_memoryMapDock; }
    bool memoryMapBusy() const { return m_memoryMapJobs.busy(); }
    // The memory map of the run in the timeline at this step (its default step when none):
    // replayed off the GUI thread under the run's allocator model.
    void showMemoryMap(std::optional<std::size_t> step);
    // The view under the strip: 0 the memory timeline, 1 the cascade.
    void showViewTab(int index);
    // Default sizes of the docks and of the strip over the timeline, for the window's size.
    void arrangeDocks();
    bool cascadeBusy() const { return m_cascadeJobs.busy(); }
    QTableView *holeView() const { return m_holeView; }
    // Drops the comparison with storages kept resident (Edit > Undo Keep Resident).
    void undoKeep();

    // The trace shown (its path as opened, or ":demo"), its display name and content hash.
    const QString &tracePath() const { return m_tracePath; }
    const QString &traceHash() const { return m_traceHash; }
    const QString &traceName() const { return m_traceName; }
    const std::shared_ptr<const Program> &program() const { return m_program; }
    SweepParameters sweepParameters() const;
    const std::optional<RunRequest> &pinnedRun() const { return m_pinned; }
    void setPinnedRun(const RunRequest &run);
    SessionController &sessions() const { return *m_sessions; }
    // Help > RematLens Help, at a section (HelpWindow::kShortcutsAnchor for the shortcut table).
    HelpWindow *showHelp(const QString &anchor = {});
    void exportRuns();

signals:
    void traceLoaded();
    void traceFailed(const QString &message);
    void sweepFinished(bool cancelled);
    void mapFinished(bool cancelled);
    void schedulesFinished(bool cancelled);
    void timelineShown();
    void memoryMapShown();

protected:
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    AllocatorOptions m_allocatorOptions;
    AllocatorOptions allocatorOptionsFor(const SweepParameters &p) const;
    void createMenus();
    void connectViews();
    void createDocks();
    QWidget *createCentre();
    void createStatusBar();
    void chooseTrace();
    void explainPublicTraces();
    void refreshRecentMenu();
    void showLoaded(const LoadedTraceResult &result);
    void showFailure(const QString &message);
    void showResults(int job, const std::vector<IndexedResult> &results);
    void showProgress(int job, std::size_t done, std::size_t total);
    void showFinished(int job, bool cancelled, double seconds);
    void startSchedules(const SweepParameters &p);
    void showCheckpoint(int job, std::size_t column, const CheckpointAnswer &answer);
    void showOptimal(int job, std::size_t column, const OptimalAnswer &answer);
    void showScheduleProgress(int job, std::size_t done, std::size_t total);
    void showSchedulesFinished(int job, bool cancelled, double seconds);
    void showCountProgress(std::size_t done, std::size_t total, const QString &format);
    void updateCancel();
    void showSelection(std::size_t policy, std::size_t column);
    void showInterval(std::size_t policy, qint64 lo);
    void showMapIntervals(int job, const QString &key, ByteRange range, const std::vector<RunResult> &intervals);
    void showMapProgress(int job, qint64 mapped, qint64 total);
    void showMapFinished(int job, bool cancelled, double seconds, std::size_t replays);
    std::optional<ByteRange> rangeToMap() const;
    void rebuildHoles();
    void inspectSelection();
    void showInspected(int job, std::shared_ptr<const InspectedRun> run,
                       std::shared_ptr<const InspectedRun> comparison);
    void buildTimeline();
    void clearRunViews();
    void pinShownRun();
    void prefetchNeighbours();
    void showCascade(const std::shared_ptr<const InspectedRun> &run, std::optional<std::size_t> focusEvent = {});
    QDockWidget *createMemoryMapDock();
    void markMemoryMapStep();
    void rerunKeeping(TensorId tensor);
    std::optional<RunRequest> comparisonFor(std::size_t policy, std::size_t column) const;
    void showHoleOf(std::size_t policy, std::size_t column);
    struct SelectedBudget {
        QString policy;
        std::string ratio; // the grid's text of it
    };
    std::optional<SelectedBudget> selectedBudget() const;
    void reselect(const std::optional<SelectedBudget> &previous);
    void setDecimalUnits(bool decimal);
    void refine(std::size_t firstColumn, std::size_t lastColumn);
    void jumpToHole(const QModelIndex &index);
    void reportProblem(const QString &title, const QString &message);
    void editCustomPolicy();

    AppSettings m_settings;
    TraceLoader m_loader;
    SweepController m_controller;
    MapController m_mapper;
    ScheduleController m_scheduler;
    ScheduleRowsModel *m_scheduleRows;
    RunInspector m_inspector;
    TraceSummaryModel *m_summaryModel;
    SweepResultModel *m_sweepModel;
    HoleListModel *m_holeModel;
    ExactMapModel *m_mapModel;
    RunDetailsModel *m_detailsModel;
    FeasibilityStrip *m_strip;
    SweepPanel *m_panel;
    TimelinePanel *m_timeline;
    CascadeView *m_cascade;
    MemoryMapPanel *m_memoryMap;
    QDockWidget *m_memoryMapDock = nullptr;
    QTabWidget *m_viewTabs;
    QSplitter *m_centre;
    std::array<QDockWidget *, 4> m_docks{}; // trace, sweep, holes, selected run
    LatestJobRunner m_cascadeJobs;          // layouts of the selected run's cascade
    LatestJobRunner m_timelineJobs;         // plots of the selected run's timeline
    LatestJobRunner m_memoryMapJobs;        // allocator layouts of the selected run at a step
    bool m_arranged = false;
    QTableView *m_holeView;
    QMenu *m_recentMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QProgressBar *m_progress;
    QToolButton *m_cancelButton;
    QAction *m_cancelAction = nullptr; // Sweep > Cancel and the toolbar's
    QLabel *m_statusLabel;

    SweepCache m_cache;
    MapCache m_mapCache;
    std::vector<RunRequest> m_requests;    // of the sweep shown
    std::vector<std::size_t> m_jobIndices; // the running job's requests, as indices into m_requests
    std::shared_ptr<const Program> m_program;
    std::optional<std::pair<std::size_t, std::size_t>> m_selected; // policy row, grid column
    std::optional<RunRequest> m_pinned;                            // overlaid when asked
    std::optional<RunRequest> m_selectedInterval; // an interval of an exact map, replayed at its lo
    std::vector<QString> m_mapKeys;                // the running map's rows
    ByteRange m_mapRange;
    std::optional<RunRequest> m_kept;                              // the selected run with storages kept resident
    QAction *m_undoKeep = nullptr;
    QString m_inspectionKey;                        // of the runs last sent to the timeline
    std::shared_ptr<const InspectedRun> m_shownRun; // in the timeline and the cascade
    std::pair<std::shared_ptr<const InspectedRun>, std::shared_ptr<const InspectedRun>> m_inspected; // run, comparison
    Baseline m_baseline;
    TraceSummary m_summary;
    QString m_traceName;
    QString m_pendingPath;
    QString m_lastStep;
    std::vector<FigureView> m_figureViews;
    QString m_tracePath;
    QString m_traceHash;
    SessionController *m_sessions = nullptr;
    HelpWindow *m_help = nullptr;
};

} // namespace rematlens
