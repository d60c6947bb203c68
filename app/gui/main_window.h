#pragma once

#include "app_settings.h"
#include "export_figure_dialog.h"
#include "trace_loader.h"

#include "app/requests/allocator_options.h"
#include "core/sim/baseline.h"
#include "views/sweep/sweep_parameters.h"
#include "views/tables/trace_summary.h"

#include <QMainWindow>

#include <optional>

class QDockWidget;
class QSplitter;
class QTabWidget;
class QTableView;

namespace rematlens {

class CascadeView;
class ExactMapModel;
class FeasibilityStrip;
class HelpWindow;
class HoleAnatomyCoordinator;
class HoleAnatomyPanel;
class HoleListModel;
class JobStatusBar;
class MapCoordinator;
class MemoryMapPanel;
class RunDetailsModel;
class RunInspector;
class RunSelection;
class RunViewsController;
class ScheduleRowsCoordinator;
class ScheduleRowsModel;
class SelectedRunPresenter;
class SessionController;
class StripStatus;
class SweepCoordinator;
class SweepPanel;
class SweepResultModel;
class TimelinePanel;
class TraceSummaryModel;
class WindowDocks;
class WindowExports;
class WindowMenus;
struct RunRequest;

// The RematLens window: it lays out the views and wires the parts that do the work together —
// the one run selection every view observes, sweeping, mapping, the schedule rows, the views
// of the selected run, sessions and export. It holds no state of its own beyond the trace shown.
class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    void openTrace(const QString &pathOrDemo);
    void chooseTrace();
    // Sweeps with the panel's parameters; false, with the reason shown, when they are invalid.
    bool startSweep();
    void setSweepParameters(const SweepParameters &parameters);
    SweepParameters sweepParameters() const;
    void setAllocatorOptions(const AllocatorOptions &options);
    // The command line's --allocator (and --eviction) choose the panel's models too.
    void chooseAllocatorModels(const AllocatorOptions &options);
    // Map Exactly (Ctrl+M): every budget of the marked range (or of the sweep's range) for each
    // row of the strip that can be mapped; false, with the reason shown, when none can.
    bool startMap();
    void refineMarkedRange();
    void cancelJobs();
    bool sweepRunning() const;
    bool mapRunning() const;
    // The trace's known maps (earlier sessions', the atlas's) are still being read or built.
    bool knownMapsPending() const;
    bool schedulesRunning() const;

    RunSelection &selection() const { return *m_selection; }
    RunViewsController &runViews() const { return *m_runViews; }
    // The run the timeline and the cascade show: a grid run, or an interval replayed at its lo.
    std::optional<RunRequest> selectedRequest() const;
    FeasibilityStrip *strip() const { return m_strip; }
    const SweepResultModel *sweepModel() const { return m_sweepModel; }
    const ScheduleRowsModel *scheduleRows() const { return m_scheduleRows; }
    const ExactMapModel *exactMaps() const { return m_mapModel; }
    const HoleListModel *holeModel() const { return m_holeModel; }
    QTableView *holeView() const { return m_holeView; }
    TimelinePanel *timeline() const { return m_timeline; }
    CascadeView *cascade() const { return m_cascade; }
    MemoryMapPanel *memoryMap() const { return m_memoryMap; }
    QDockWidget *memoryMapDock() const { return m_memoryMapDock; }
    QDockWidget *holeAnatomyDock() const;
    HoleAnatomyPanel *holeAnatomy() const { return m_holeAnatomy; }
    HoleAnatomyCoordinator &holeStories() const { return *m_holeStories; }
    bool holeAnatomyBusy() const;
    const RunInspector &inspector() const;
    bool cascadeBusy() const;
    bool memoryMapBusy() const;
    void showMemoryMap(std::optional<std::size_t> step);
    // The view under the strip: 0 the memory timeline, 1 the cascade.
    void showViewTab(int index);
    // Default sizes of the docks and of the strip over the timeline, for the window's size.
    void arrangeDocks();
    void undoKeep();
    const std::optional<RunRequest> &pinnedRun() const;
    void setPinnedRun(const RunRequest &run);

    // Views offered by File > Export Figure; a view registers itself with one line here.
    void registerFigureView(const QString &name, const FigureSource *source);
    const std::vector<FigureView> &figureViews() const;
    void exportFigure();
    void exportRuns();
    void setDecimalUnits(bool decimal);
    // Help > RematLens Help, at a section (HelpWindow::kShortcutsAnchor for the shortcut table).
    HelpWindow *showHelp(const QString &anchor = {});

    // The trace shown (its path as opened, or ":demo"), its display name and content hash.
    const QString &tracePath() const { return m_tracePath; }
    const QString &traceHash() const { return m_traceHash; }
    const QString &traceName() const { return m_traceName; }
    const std::shared_ptr<const Program> &program() const { return m_program; }
    SessionController &sessions() const { return *m_sessions; }
    // The status bar's fields on what the strip holds (its maps' sources, its holes).
    const StripStatus &stripStatus() const { return *m_stripStatus; }
    AppSettings &settings() { return m_settings; }

signals:
    void traceLoaded();
    void traceFailed(const QString &message);
    void sweepFinished(bool cancelled);
    void mapFinished(bool cancelled);
    void knownMapsShown();
    void schedulesFinished(bool cancelled);
    void timelineShown();
    void memoryMapShown();
    void holeExplained();

protected:
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createParts();
    void connectParts();
    QWidget *createCentre();
    void showLoaded(const LoadedTraceResult &result);
    void showFailure(const QString &message);
    void reportProblem(const QString &title, const QString &message);
    void rebuildHoles();
    void offerMemoryMap();
    void updateRunning();
    void editCustomPolicy();
    void jumpToHole(const QModelIndex &index);

    AppSettings m_settings;
    TraceLoader m_loader;
    RunSelection *m_selection;
    ScheduleRowsModel *m_scheduleRows;
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
    HoleAnatomyPanel *m_holeAnatomy;
    QDockWidget *m_memoryMapDock = nullptr;
    QTabWidget *m_viewTabs;
    QSplitter *m_centre;
    QTableView *m_holeView = nullptr;
    WindowDocks *m_docks = nullptr;
    bool m_arranged = false;
    bool m_memoryMapOffered = false;
    bool m_jumpingToHole = false; // the jump's own marking of the table starts no second jump

    JobStatusBar *m_status = nullptr;
    StripStatus *m_stripStatus = nullptr;
    WindowMenus *m_menus = nullptr;
    WindowExports *m_exports = nullptr;
    SweepCoordinator *m_sweeps = nullptr;
    MapCoordinator *m_maps = nullptr;
    ScheduleRowsCoordinator *m_schedules = nullptr;
    RunViewsController *m_runViews = nullptr;
    HoleAnatomyCoordinator *m_holeStories = nullptr;
    SelectedRunPresenter *m_presenter = nullptr;
    SessionController *m_sessions = nullptr;
    HelpWindow *m_help = nullptr;

    std::shared_ptr<const Program> m_program;
    TraceSummary m_summary;
    QString m_traceName;
    QString m_pendingPath;
    QString m_tracePath;
    QString m_traceHash;
};

} // namespace rematlens
