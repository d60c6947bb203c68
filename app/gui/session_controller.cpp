#include "session_controller.h"

#include "main_window.h"
#include "session_file.h"

#include "app/requests/loaded_trace.h"
#include "app/requests/request_reporter.h"
#include "app/requests/request_settings.h"
#include "app/formats/trace_source.h"
#include "core/sweep/sweep_plan.h"
#include "views/memory/memory_map_panel.h"
#include "views/memory/memory_map_view.h"
#include "views/strip/feasibility_strip.h"
#include "views/tables/sweep_result_model.h"
#include "views/timeline/timeline_panel.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace rematlens {

namespace {

SessionState::Run runOf(const RunRequest &request)
{
    SessionState::Run run;
    run.policy = QString::fromStdString(request.config.policy.name);
    run.runtime = QString::fromUtf8(runtimeName(request.config.runtime).data());
    run.overheadLimit = request.overheadLimit;
    run.budget = request.config.budget;
    run.ratio = request.ratio;
    for (const std::string &name : request.keep)
        run.keep << QString::fromStdString(name);
    run.allocator = QString::fromStdString(allocatorKey(request.config.allocator));
    return run;
}

// The grid column nearest a ratio (the exact one when the grid has it).
std::size_t columnOf(const std::vector<GridPoint> &grid, double ratio)
{
    std::size_t best = 0;
    for (std::size_t i = 0; i < grid.size(); ++i)
        if (std::abs(grid[i].ratio - ratio) < std::abs(grid[best].ratio - ratio))
            best = i;
    return best;
}

QString sessionFilter()
{
    return QObject::tr("RematLens sessions (*%1);;All files (*)").arg(QLatin1String(SessionFile::kExtension));
}

} // namespace

SessionController::SessionController(MainWindow &window) : QObject(&window), m_window(window) {}

void SessionController::setStripViewAccess(StripViewGetter get, StripViewSetter set)
{
    m_getStripView = std::move(get);
    m_setStripView = std::move(set);
}

SessionState SessionController::capture() const
{
    SessionState s;
    s.tracePath = m_window.tracePath();
    s.traceSha256 = m_window.traceHash();
    s.sweep = m_window.sweepParameters();
    const SweepResultModel &model = *m_window.sweepModel();
    if (const auto cell = m_window.strip()->selection(); cell && cell->policy < model.policyCount()
                                                         && cell->column < model.gridSize())
        s.selection = SessionState::Selection{int(cell->policy), model.policyName(cell->policy),
                                              model.grid()[cell->column].ratio};
    if (const std::optional<RunRequest> &pinned = m_window.pinnedRun())
        s.pinned = runOf(*pinned);
    s.overlay = m_window.timeline()->overlay();
    const TimelineView &view = *m_window.timeline()->view();
    s.timelineAxis = view.axis();
    if (!view.plot().empty() && view.window().zoomed())
        s.timelineRange = SessionState::Range{view.window().from, view.window().to};
    if (m_getStripView)
        s.stripView = m_getStripView();
    if (const auto &plot = m_window.memoryMap()->view()->figure().plot(); plot && plot->snapshot)
        s.memoryMapStep = std::int64_t(plot->snapshot->step);
    return s;
}

bool SessionController::save(const QString &path, QString &error) const
{
    if (m_window.tracePath().isEmpty()) {
        error = tr("There is no trace open to save a session of.");
        return false;
    }
    return SessionFile::write(capture(), path, error);
}

bool SessionController::open(const QString &path, QString &error, const QString &tracePath)
{
    const std::optional<SessionState> state = SessionFile::read(path, error);
    if (!state)
        return false;
    const QString trace = tracePath.isEmpty() ? state->tracePath : tracePath;
    error = SessionFile::traceProblem(*state, trace);
    if (!error.isEmpty())
        return false;
    apply(*state, trace);
    return true;
}

void SessionController::apply(const SessionState &state, const QString &tracePath)
{
    disconnect(m_loaded);
    disconnect(m_failed);
    disconnect(m_shown);
    m_pending = state;
    // Nothing changes until the trace is read: a trace that fails to parse leaves the window as it was.
    m_loaded = connect(&m_window, &MainWindow::traceLoaded, this, &SessionController::applySettings);
    m_failed = connect(&m_window, &MainWindow::traceFailed, this, [this] {
        disconnect(m_loaded);
        disconnect(m_failed);
        m_pending.reset();
    });
    m_window.openTrace(tracePath);
}

// Right after the trace is read, before the window sweeps it: the sweep sweeps the session's grid.
void SessionController::applySettings()
{
    disconnect(m_loaded);
    disconnect(m_failed);
    if (!m_pending)
        return;
    m_window.setSweepParameters(m_pending->sweep);
    m_window.timeline()->setAxis(m_pending->timelineAxis);
    m_window.timeline()->setOverlay(m_pending->overlay);
    QTimer::singleShot(0, this, &SessionController::applyRuns); // once the sweep is laid out
}

void SessionController::applyRuns()
{
    if (!m_pending)
        return;
    if (m_pending->pinned) {
        QString error;
        if (const std::optional<RunRequest> pinned = planRun(*m_pending->pinned, error))
            m_window.setPinnedRun(*pinned);
        else
            emit problem(tr("Cannot pin the session's run"), error);
    }
    if (m_pending->stripView && m_setStripView)
        m_setStripView(*m_pending->stripView);
    const SweepResultModel &model = *m_window.sweepModel();
    if (!m_pending->selection || model.gridSize() == 0 || model.policyCount() == 0) {
        finish();
        return;
    }
    const SessionState::Selection &selection = *m_pending->selection;
    std::size_t row = std::size_t(std::clamp<int>(selection.policyRow, 0, int(model.policyCount()) - 1));
    for (std::size_t i = 0; i < model.policyCount(); ++i)
        if (model.policyName(i) == selection.policy)
            row = i;
    m_shown = connect(&m_window, &MainWindow::timelineShown, this, &SessionController::applyTimelineRange);
    m_window.strip()->setSelection(FeasibilityStrip::Cell{row, columnOf(model.grid(), selection.ratio)});
}

void SessionController::applyTimelineRange()
{
    disconnect(m_shown);
    if (m_pending && m_pending->timelineRange)
        m_window.timeline()->view()->showRange(m_pending->timelineRange->first, m_pending->timelineRange->second);
    if (m_pending && m_pending->memoryMapStep)
        applyMemoryMapStep(std::size_t(*m_pending->memoryMapStep));
    finish();
}

// The selected run is shown by now; its layout at the session's step replaces the default one.
void SessionController::applyMemoryMapStep(std::size_t step)
{
    const std::size_t steps = m_window.program() ? m_window.program()->schedule.size() : 0;
    if (steps == 0)
        return;
    if (step >= steps) {
        emit problem(tr("Cannot show the session's memory map"),
                     tr("memory_map.step %1 is past the schedule's last step %2").arg(step).arg(steps - 1));
        return;
    }
    m_window.showMemoryMap(step);
}

void SessionController::finish()
{
    m_pending.reset();
    emit restored();
}

std::optional<RunRequest> SessionController::planRun(const SessionState::Run &run, QString &error) const
{
    std::string problem;
    const auto policies = resolvePolicies({run.policy.toStdString()}, problem);
    const auto runtime = policies ? resolveRuntime(run.runtime.toStdString(), problem) : std::nullopt;
    std::vector<std::string> names;
    for (const QString &name : run.keep)
        names.push_back(name.toStdString());
    const auto keep = runtime ? resolveKeep(names, *m_window.program(), problem) : std::nullopt;
    const auto allocator = parseAllocatorKey(run.allocator.toStdString());
    if (keep && !allocator)
        problem = "pinned.allocator: expected sum, caching or best-fit with their options, found \"" +
                  run.allocator.toStdString() + "\"";
    if (!keep || !allocator) {
        error = QString::fromStdString(problem);
        return std::nullopt;
    }
    SweepSettings settings;
    settings.trace = m_window.traceName().toStdString();
    settings.runtime = *runtime;
    settings.overheadLimit = run.overheadLimit;
    settings.keepResident = *keep;
    settings.keep = names;
    settings.allocator = *allocator;
    RunRequest request = planBudget(settings, policies->front(), m_window.sweepModel()->baseline(), run.budget);
    request.ratio = run.ratio; // as it was labelled (a grid decimal), not recomputed from the bytes
    return request;
}

void SessionController::chooseAndSave(QWidget *parent)
{
    QString path = QFileDialog::getSaveFileName(parent, tr("Save Session"), m_settings.lastSessionDirectory(),
                                                sessionFilter());
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QLatin1String(SessionFile::kExtension);
    m_settings.setLastSessionDirectory(QFileInfo(path).absolutePath());
    if (QString error; !save(path, error))
        emit problem(tr("Cannot save the session"), error);
}

void SessionController::chooseAndOpen(QWidget *parent)
{
    const QString path = QFileDialog::getOpenFileName(parent, tr("Open Session"), m_settings.lastSessionDirectory(),
                                                      sessionFilter());
    if (path.isEmpty())
        return;
    m_settings.setLastSessionDirectory(QFileInfo(path).absolutePath());
    QString error;
    const std::optional<SessionState> state = SessionFile::read(path, error);
    if (!state) {
        emit problem(tr("Cannot open the session"), error);
        return;
    }
    QString trace = state->tracePath;
    for (QString problem = SessionFile::traceProblem(*state, trace); !problem.isEmpty();
         problem = SessionFile::traceProblem(*state, trace)) {
        trace = locateTrace(parent, *state, problem);
        if (trace.isEmpty())
            return; // the user gave up: nothing changed
    }
    apply(*state, trace);
}

// Asks where the session's trace is now; empty when the user cancels.
QString SessionController::locateTrace(QWidget *parent, const SessionState &state, QString problem)
{
    QMessageBox box(QMessageBox::Warning, tr("Cannot open the session"),
                    problem + tr("\n\nThe window keeps what it shows. Locate the trace the session was saved with?"),
                    QMessageBox::Cancel, parent);
    QPushButton *locate = box.addButton(tr("Locate Trace…"), QMessageBox::AcceptRole);
    box.exec();
    if (box.clickedButton() != locate)
        return {};
    return QFileDialog::getOpenFileName(parent, tr("Locate %1").arg(QFileInfo(state.tracePath).fileName()),
                                        QFileInfo(state.tracePath).absolutePath(),
                                        tr("simrd traces (*.log *.jsonl *.json);;All files (*)"));
}

} // namespace rematlens
