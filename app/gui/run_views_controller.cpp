#include "run_views_controller.h"

#include "core/analysis/memory_snapshot_at.h"
#include "views/cascade/cascade_view.h"
#include "views/memory/memory_map_panel.h"
#include "views/tables/exact_map_model.h"
#include "views/tables/sweep_result_model.h"
#include "views/timeline/timeline_panel.h"
#include "views/timeline/timeline_view.h"

#include <QDockWidget>
#include <QFontInfo>
#include <QStringList>

namespace rematlens {

RunViewsController::RunViewsController(RunSelection &selection, const SweepResultModel &sweep,
                                       const ExactMapModel &maps, Views views, QObject *parent)
    : QObject(parent), m_selection(selection), m_sweep(sweep), m_maps(maps), m_views(views), m_cascadeJobs(this),
      m_timelineJobs(this), m_memoryMapJobs(this)
{
    connect(&m_selection, &RunSelection::changed, this, &RunViewsController::selectionChanged);
    connect(&m_inspector, &RunInspector::inspected, this,
            [this](int, std::shared_ptr<const InspectedRun> run, std::shared_ptr<const InspectedRun> comparison) {
                showInspected(std::move(run), std::move(comparison));
            });
    TimelinePanel *timeline = m_views.timeline;
    connect(timeline, &TimelinePanel::overlayChanged, this, &RunViewsController::inspect);
    connect(timeline, &TimelinePanel::axisChanged, this, [this] {
        if (m_inspected.first)
            buildTimeline();
    });
    connect(timeline, &TimelinePanel::pinRequested, this, &RunViewsController::pinShownRun);
    connect(timeline->view(), &TimelineView::stepClicked, this, [this](std::uint32_t step) {
        if (m_inspected.first && !m_inspected.first->request.config.allocator.isSum()) {
            m_views.memoryMapDock->show();
            m_views.memoryMapDock->raise();
            showMemoryMap(step);
        }
    });
    connect(m_views.memoryMap, &MemoryMapPanel::stepRequested, this, [this](std::size_t step) { showMemoryMap(step); });
    connect(m_views.memoryMap, &MemoryMapPanel::defaultStepRequested, this, [this] {
        m_memoryMapStep.reset();
        showMemoryMap(std::nullopt);
    });
    connect(m_views.memoryMapDock, &QDockWidget::visibilityChanged, this, &RunViewsController::markMemoryMapStep);
    connect(m_views.cascade, &CascadeView::keepResidentRequested, this, &RunViewsController::keepResident);
    connect(m_views.cascade, &CascadeView::causesRequested, this, [this](std::size_t event) { showCascade(event); });
    clearViews();
}

RunViewsController::~RunViewsController() = default;

void RunViewsController::setProgram(std::shared_ptr<const Program> program)
{
    m_program = std::move(program);
    m_kept.reset();
    m_pinned.reset();
    m_inspectionKey.clear();
    m_inspector.cancel();
    m_inspector.forget();
    m_memoryMapStep.reset();
    clearViews();
    emit keptChanged(false);
}

RunIdentity RunViewsController::identityOf(const RunRequest &request) const
{
    return runIdentityOf(m_sweep.traceHash(), request);
}

std::optional<RunIdentity> RunViewsController::timelineRun() const
{
    return m_timelineRun;
}

std::optional<RunIdentity> RunViewsController::cascadeRun() const
{
    return m_cascadeRun;
}

std::optional<RunIdentity> RunViewsController::memoryMapRun() const
{
    return m_memoryMapRun;
}

bool RunViewsController::isSelected(const std::shared_ptr<const InspectedRun> &run) const
{
    return run && m_selection.holds(identityOf(run->request));
}

// A new run selected: every view drops what it showed at once, then shows the new run as
// soon as it is recorded.
void RunViewsController::selectionChanged()
{
    if (m_kept) {
        m_kept.reset(); // a kept-resident comparison belongs to the run it was made from
        emit keptChanged(false);
    }
    m_memoryMapStep.reset();
    m_moment.reset();
    if (!m_selection.current()) {
        m_inspector.cancel();
        m_inspectionKey.clear();
        clearViews();
        return;
    }
    inspect();
}

// The run drawn dashed over the selected one: the same budget with storages kept resident when
// asked for, else what the overlay menu says.
std::optional<RunRequest> RunViewsController::comparison() const
{
    const std::optional<SelectedRun> &selected = m_selection.current();
    if (!selected)
        return std::nullopt;
    if (m_kept)
        return m_kept;
    const TimelinePanel::Overlay overlay = m_views.timeline->overlay();
    if (overlay == TimelinePanel::Overlay::Pinned)
        return m_pinned;
    if (overlay == TimelinePanel::Overlay::None)
        return std::nullopt;
    if (selected->interval)
        return neighbourInterval(*selected);
    const std::optional<std::size_t> row = m_sweep.rowOf(selected->identity.row);
    const std::optional<std::size_t> column = row ? m_sweep.columnOf(*row, selected->identity.budget) : std::nullopt;
    if (!column)
        return std::nullopt;
    if (overlay == TimelinePanel::Overlay::BudgetBelow && *column > 0)
        return m_sweep.request(*row, *column - 1);
    if (overlay == TimelinePanel::Overlay::BudgetAbove && *column + 1 < m_sweep.gridSize())
        return m_sweep.request(*row, *column + 1);
    return std::nullopt;
}

// The interval below ends one byte under lo; the one above starts at hi.
std::optional<RunRequest> RunViewsController::neighbourInterval(const SelectedRun &selected) const
{
    RunRequest neighbour = selected.request;
    const BudgetInterval &interval = *selected.interval;
    const bool below = m_views.timeline->overlay() == TimelinePanel::Overlay::BudgetBelow;
    if (below && interval.lo > 0)
        neighbour.config.budget = interval.lo - 1;
    else if (!below && interval.hi)
        neighbour.config.budget = *interval.hi;
    else
        return std::nullopt;
    const Bytes memory = m_sweep.baseline().memory;
    neighbour.ratio = memory > 0 ? static_cast<double>(neighbour.config.budget) / static_cast<double>(memory) : 0;
    return neighbour;
}

void RunViewsController::inspect()
{
    const std::optional<SelectedRun> &selected = m_selection.current();
    if (!selected || !m_program || m_holdInspection)
        return;
    const std::optional<RunRequest> compared = comparison();
    const std::string key = identityOf(selected->request).key() + " | " + (compared ? identityOf(*compared).key() : "");
    if (key == m_inspectionKey && m_timelineRun && m_selection.holds(*m_timelineRun))
        return;
    m_inspectionKey = key;
    clearViews();
    m_views.timeline->showReplaying(selected->request);
    m_views.cascade->showMessage(tr("Replaying the selected run…"));
    m_views.memoryMap->view()->showMessage(tr("Replaying the selected run…"));
    m_inspector.inspect(m_program, selected->request, compared);
}

void RunViewsController::showInspected(std::shared_ptr<const InspectedRun> run,
                                       std::shared_ptr<const InspectedRun> comparison)
{
    if (!isSelected(run))
        return; // a newer selection is on its way
    m_inspected = {std::move(run), std::move(comparison)};
    showCascade(momentEvent());
    buildTimeline();
    showMemoryMap(m_memoryMapStep);
}

// The views hold nothing until the selection's run arrives.
void RunViewsController::clearViews()
{
    m_inspected = {};
    m_timelineRun.reset();
    m_cascadeRun.reset();
    m_memoryMapRun.reset();
    m_timelineJobs.cancel();
    m_cascadeJobs.cancel();
    m_memoryMapJobs.cancel();
    m_views.timeline->clear();
    m_views.cascade->showMessage(tr("Select a run in the strip to see its cascade"));
    m_views.memoryMap->setStepsEnabled(false);
    m_views.memoryMap->view()->showMessage(tr("Select a run in the strip to see its memory map"));
    markMemoryMapStep();
}

// The plot (tracks, divergence) is built off the GUI thread; drawing it is all the window does.
void RunViewsController::buildTimeline()
{
    const auto [run, compared] = m_inspected;
    if (!run || !m_program)
        return;
    m_views.timeline->setBusy(true);
    m_timelineJobs.run(
        [program = m_program, run, compared, axis = m_views.timeline->axis()] {
            return std::make_shared<const TimelinePlot>(TimelinePlot::build(program, run, compared, axis));
        },
        [this](std::shared_ptr<const TimelinePlot> plot) {
            if (!isSelected(plot->run))
                return;
            m_timelineRun = identityOf(plot->run->request);
            m_views.timeline->setBusy(false);
            m_views.timeline->showPlot(std::move(plot));
            if (m_moment)
                m_views.timeline->view()->showStep(m_moment->step);
            markMemoryMapStep();
            emit timelineShown();
            prefetchNeighbours();
        });
}

void RunViewsController::showCascade(std::optional<std::size_t> focusEvent)
{
    const std::shared_ptr<const InspectedRun> run = m_inspected.first;
    m_cascadeRun.reset();
    if (!run || !m_program) {
        m_cascadeJobs.cancel();
        m_views.cascade->showMessage(tr("Select a run in the strip to see its cascade"));
        return;
    }
    CascadeLook look; // on screen, boxes read at the window's text size
    look.fontSize = QFontInfo(m_views.cascade->font()).pixelSize();
    m_views.cascade->showMessage(tr("Laying out the cascade…"));
    m_cascadeJobs.run(
        [program = m_program, run, focusEvent, look] {
            CascadeOptions options;
            options.focusEvent = focusEvent;
            return std::make_shared<const CascadeDiagram>(
                CascadeDiagram::forRun(program, run->request, run->result, run->recording, options, look));
        },
        [this, run](std::shared_ptr<const CascadeDiagram> diagram) {
            if (!isSelected(run))
                return;
            m_cascadeRun = identityOf(run->request);
            m_views.cascade->setDiagram(*diagram);
        });
}

void RunViewsController::showMemoryMap(std::optional<std::size_t> step)
{
    const std::shared_ptr<const InspectedRun> run = m_inspected.first;
    m_memoryMapRun.reset();
    if (!run || !m_program) {
        m_memoryMapJobs.cancel();
        m_views.memoryMap->setStepsEnabled(false);
        m_views.memoryMap->view()->showMessage(tr("Select a run in the strip to see its memory map"));
        markMemoryMapStep();
        return;
    }
    if (step)
        m_memoryMapStep = step; // kept while the same run is shown (a new overlay, a new axis)
    if (run->request.config.allocator.isSum()) {
        m_memoryMapJobs.cancel();
        auto plot = std::make_shared<MemoryMapPlot>();
        plot->program = m_program;
        plot->request = run->request;
        m_views.memoryMap->setStepsEnabled(false);
        m_views.memoryMap->view()->setPlot(std::move(plot));
        m_memoryMapRun = identityOf(run->request);
        markMemoryMapStep();
        emit memoryMapShown();
        return;
    }
    m_views.memoryMap->view()->showMessage(step ? tr("Replaying to step %1…").arg(*step) : tr("Replaying…"));
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
            if (!m_selection.holds(identityOf(plot->request)))
                return;
            m_memoryMapRun = identityOf(plot->request);
            m_views.memoryMap->setStepsEnabled(true);
            if (plot->snapshot)
                m_views.memoryMap->setSteps(m_program ? m_program->schedule.size() : 1, plot->snapshot->step);
            m_views.memoryMap->view()->setPlot(std::move(plot));
            markMemoryMapStep();
            emit memoryMapShown();
        });
}

// The timeline marks the step whose layout the memory map shows, while the dock is open and
// shows one.
void RunViewsController::markMemoryMapStep()
{
    const std::shared_ptr<const MemoryMapPlot> &plot = m_views.memoryMap->view()->figure().plot();
    const bool shown = m_memoryMapRun && plot && plot->snapshot && !m_views.memoryMapDock->isHidden();
    if (shown)
        m_views.timeline->view()->markStep(std::uint32_t(plot->snapshot->step));
    else
        m_views.timeline->view()->markStep(m_timelineRun ? momentStep() : std::nullopt);
}

void RunViewsController::compareWith(const RunRequest &run, const RunIdentity &selected)
{
    m_pinned = run;
    const bool now = m_selection.holds(selected);
    m_holdInspection = !now;
    m_views.timeline->setOverlay(TimelinePanel::Overlay::Pinned); // replays now if it changed
    m_holdInspection = false;
    if (now)
        inspect();
}

void RunViewsController::showMoment(std::uint32_t step, std::optional<TensorId> tensor)
{
    m_moment = Moment{step, tensor};
    m_memoryMapStep = step;
    if (m_inspected.first && isSelected(m_inspected.first))
        applyMoment();
}

std::optional<std::uint32_t> RunViewsController::momentStep() const
{
    return m_moment ? std::optional(m_moment->step) : std::nullopt;
}

// The selected run shows already: each view moves to the moment.
void RunViewsController::applyMoment()
{
    if (m_moment->tensor)
        showCascade(momentEvent());
    if (m_timelineRun && m_selection.holds(*m_timelineRun))
        m_views.timeline->view()->showStep(m_moment->step);
    showMemoryMap(m_moment->step);
}

// The event of the moment's tensor in the selected run: the last one at its step, else the
// first after it.
std::optional<std::size_t> RunViewsController::momentEvent() const
{
    const std::shared_ptr<const InspectedRun> &run = m_inspected.first;
    if (!m_moment || !m_moment->tensor || !run || !m_program)
        return std::nullopt;
    const StorageId storage = m_program->storageOf(*m_moment->tensor);
    std::optional<std::size_t> atStep;
    for (std::size_t i = 0; i < run->recording.events.size(); ++i) {
        const ReplayEvent &e = run->recording.events[i];
        if (m_program->storageOf(e.tensor) != storage || e.step < m_moment->step)
            continue;
        if (e.step > m_moment->step)
            return atStep ? atStep : std::optional(i);
        atStep = i;
    }
    return atStep;
}

// While the user looks, the budgets the arrow keys lead to next (and what they would be
// overlaid on) are recorded ahead, so stepping through budgets shows each at once.
void RunViewsController::prefetchNeighbours()
{
    const std::optional<SelectedRun> &selected = m_selection.current();
    if (!selected || !m_program || selected->interval)
        return; // intervals: each is one replay away, recorded when selected
    const std::optional<std::size_t> row = m_sweep.rowOf(selected->identity.row);
    const std::optional<std::size_t> column = row ? m_sweep.columnOf(*row, selected->identity.budget) : std::nullopt;
    if (!column)
        return;
    std::vector<std::ptrdiff_t> offsets{1, -1};
    if (m_views.timeline->overlay() == TimelinePanel::Overlay::BudgetBelow)
        offsets.push_back(-2);
    else if (m_views.timeline->overlay() == TimelinePanel::Overlay::BudgetAbove)
        offsets.push_back(2);
    std::vector<RunRequest> neighbours;
    for (std::ptrdiff_t offset : offsets) {
        const std::ptrdiff_t c = std::ptrdiff_t(*column) + offset;
        if (c >= 0 && std::size_t(c) < m_sweep.gridSize())
            neighbours.push_back(m_sweep.request(*row, std::size_t(c)));
    }
    m_inspector.prefetch(m_program, std::move(neighbours));
}

// The cascade's "keep resident and rerun": the strip, the Holes table, the details, the
// timeline and the cascade still show the selected run; undo or another selection drops it.
void RunViewsController::keepResident(TensorId tensor)
{
    const std::optional<SelectedRun> &selected = m_selection.current();
    if (!selected || !m_program || tensor >= m_program->tensors.size())
        return;
    RunRequest request = m_kept.value_or(selected->request);
    auto &kept = request.config.keepResident;
    if (std::find(kept.begin(), kept.end(), tensor) == kept.end()) {
        kept.push_back(tensor);
        request.keep.push_back(m_program->tensors[tensor].name);
    }
    QStringList names;
    for (const std::string &name : request.keep)
        names << QString::fromStdString(name);
    m_kept = request;
    emit keptChanged(true);
    emit message(tr("Replaying with %1 kept resident; the timeline draws it dashed (Ctrl+Z undoes)")
                     .arg(names.join(QStringLiteral(", "))),
                 8000);
    inspect();
}

void RunViewsController::undoKeep()
{
    if (!m_kept)
        return;
    m_kept.reset();
    emit keptChanged(false);
    emit message(tr("Back to the selected run without kept storages"), 4000);
    inspect();
}

void RunViewsController::pinShownRun()
{
    const TimelinePlot &plot = m_views.timeline->view()->plot();
    if (plot.empty()) {
        emit message(tr("Select a run in the strip first"), 4000);
        return;
    }
    m_pinned = plot.run->request;
    emit message(tr("Pinned %1; it is overlaid on the runs you select").arg(plot.runLabel(*plot.run)), 5000);
    if (m_views.timeline->overlay() == TimelinePanel::Overlay::Pinned)
        inspect();
    else
        m_views.timeline->setOverlay(TimelinePanel::Overlay::Pinned);
}

void RunViewsController::setPinnedRun(const RunRequest &run)
{
    m_pinned = run;
    if (m_views.timeline->overlay() == TimelinePanel::Overlay::Pinned)
        inspect();
}

void RunViewsController::refreshUnits()
{
    m_views.timeline->view()->refresh();
    if (m_inspected.first)
        showCascade();
}

} // namespace rematlens
