#pragma once

#include "latest_job_runner.h"
#include "run_inspector.h"

#include "core/sim/run_identity.h"
#include "views/common/run_selection.h"

#include <QObject>

#include <memory>
#include <optional>

class QDockWidget;

namespace rematlens {

class CascadeView;
class ExactMapModel;
class MemoryMapPanel;
class SweepResultModel;
class TimelinePanel;

// The views that show one run in depth (memory timeline, cascade, memory map) follow the
// window's one selection: every change replays the run it names, with the run it is compared
// with, off the GUI thread. A view shows a result only while that result is the selection's
// run; until then it says it is replaying, and never shows an older run.
class RunViewsController : public QObject {
    Q_OBJECT

public:
    struct Views {
        TimelinePanel *timeline;
        CascadeView *cascade;
        MemoryMapPanel *memoryMap;
        QDockWidget *memoryMapDock;
    };

    RunViewsController(RunSelection &selection, const SweepResultModel &sweep, const ExactMapModel &maps, Views views,
                       QObject *parent);
    ~RunViewsController() override;

    // A new trace: nothing recorded for the last one may show or arrive.
    void setProgram(std::shared_ptr<const Program> program);
    // The runs each view shows now (nothing while it replays or has nothing to show).
    std::optional<RunIdentity> timelineRun() const;
    std::optional<RunIdentity> cascadeRun() const;
    std::optional<RunIdentity> memoryMapRun() const;

    // The memory map of the run in the timeline at this step (its default step when none).
    void showMemoryMap(std::optional<std::size_t> step);
    // The selected run again with this storage kept resident (and any kept before), dashed over it.
    void keepResident(TensorId tensor);
    void undoKeep();
    bool hasKept() const { return m_kept.has_value(); }
    // The run shown, overlaid on the runs selected next.
    void pinShownRun();
    void setPinnedRun(const RunRequest &run);
    const std::optional<RunRequest> &pinnedRun() const { return m_pinned; }
    // Pins this run and overlays it on the timeline; the replay waits for the run selected next
    // unless `selected` is the selection's run already.
    void compareWith(const RunRequest &run, const RunIdentity &selected);
    // A moment of the selected run, once it shows: the timeline centred on the step and marked
    // there, the memory map at it, the cascade built around the tensor's event at that step.
    // Another selection forgets it.
    void showMoment(std::uint32_t step, std::optional<TensorId> tensor);
    std::optional<std::uint32_t> momentStep() const;
    // Labels in the byte units chosen.
    void refreshUnits();
    const RunInspector &inspector() const { return m_inspector; }
    bool cascadeBusy() const { return m_cascadeJobs.busy(); }
    bool memoryMapBusy() const { return m_memoryMapJobs.busy(); }

signals:
    void timelineShown();
    void memoryMapShown();
    void keptChanged(bool kept);
    void message(const QString &text, int milliseconds);

private:
    void selectionChanged();
    void inspect();
    void showInspected(std::shared_ptr<const InspectedRun> run, std::shared_ptr<const InspectedRun> comparison);
    void buildTimeline();
    void showCascade(std::optional<std::size_t> focusEvent = {});
    void markMemoryMapStep();
    void clearViews();
    void prefetchNeighbours();
    std::optional<RunRequest> comparison() const;
    std::optional<RunRequest> neighbourInterval(const SelectedRun &selected) const;
    bool isSelected(const std::shared_ptr<const InspectedRun> &run) const;
    std::optional<std::size_t> momentEvent() const;
    void applyMoment();
    RunIdentity identityOf(const RunRequest &request) const;

    RunSelection &m_selection;
    const SweepResultModel &m_sweep;
    const ExactMapModel &m_maps;
    Views m_views;
    std::shared_ptr<const Program> m_program;
    RunInspector m_inspector;
    LatestJobRunner m_cascadeJobs;
    LatestJobRunner m_timelineJobs;
    LatestJobRunner m_memoryMapJobs;
    std::optional<RunRequest> m_kept;   // the selected run with storages kept resident
    std::optional<RunRequest> m_pinned; // overlaid when the overlay says so
    std::string m_inspectionKey;        // of the runs last sent to the inspector
    std::pair<std::shared_ptr<const InspectedRun>, std::shared_ptr<const InspectedRun>> m_inspected;
    std::optional<std::size_t> m_memoryMapStep; // the step picked for the selected run
    struct Moment {
        std::uint32_t step;
        std::optional<TensorId> tensor;
    };
    std::optional<Moment> m_moment; // of the selected run, from the Hole anatomy panel
    bool m_holdInspection = false;  // the overlay changes for the run about to be selected
    std::optional<RunIdentity> m_timelineRun, m_cascadeRun, m_memoryMapRun;
};

} // namespace rematlens
