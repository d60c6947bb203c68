#include "hole_anatomy_coordinator.h"

#include "hole_anatomy_panel.h"
#include "hole_story_html_writer.h"
#include "app/reports/hole_story.h"
#include "run_views_controller.h"
#include "selected_run_presenter.h"

#include "views/common/run_selection.h"
#include "views/strip/mapped_row.h"
#include "views/tables/exact_map_model.h"
#include "views/tables/hole_list_model.h"
#include "views/tables/sweep_result_model.h"

#include <QDockWidget>

namespace rematlens {

HoleAnatomyCoordinator::HoleAnatomyCoordinator(Parts parts, QObject *parent)
    : QObject(parent), m_parts(std::move(parts)), m_controller(this)
{
    connect(m_parts.selection, &RunSelection::changed, this, &HoleAnatomyCoordinator::selectionChanged);
    connect(m_parts.holes, &QAbstractItemModel::modelReset, this, &HoleAnatomyCoordinator::holesChanged);
    connect(m_parts.holes, &QAbstractItemModel::dataChanged, this, &HoleAnatomyCoordinator::holesChanged);
    connect(m_parts.dock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible)
            startIfShown();
    });
    connect(m_parts.panel, &HoleAnatomyPanel::linkActivated, this, &HoleAnatomyCoordinator::followLink);
    connect(m_parts.panel, &HoleAnatomyPanel::cancelRequested, this, &HoleAnatomyCoordinator::cancel);
    connect(m_parts.panel, &HoleAnatomyPanel::rescueToggled, this, &HoleAnatomyCoordinator::setRescue);
    connect(&m_controller, &HoleAnatomyController::progress, this,
            [this](int job, const QString &text, qint64 done, qint64 total) {
                if (job == m_controller.currentJob())
                    m_parts.panel->showProgress(text, done, total);
            });
    connect(&m_controller, &HoleAnatomyController::answered, this,
            [this](int, std::shared_ptr<const HoleAnatomyAnswer> answer) {
                if (m_key && answer->key == *m_key)
                    showAnswer(*answer);
            });
    connect(&m_controller, &HoleAnatomyController::finished, this, [this](int, bool cancelled, double) {
        if (cancelled && m_key) {
            m_pending = true; // selecting the hole again, or reopening the dock, starts over
            m_parts.panel->showProblem(holeTitle(), tr("Cancelled; select the hole again to explain it."));
            emit explained();
        }
        emit runningChanged();
    });
}

void HoleAnatomyCoordinator::setProgram(std::shared_ptr<const Program> program)
{
    m_program = std::move(program);
    m_controller.forget();
    m_key.reset();
    m_request.reset();
    m_pending = false;
    m_figure.clear();
    m_parts.panel->showIntroduction();
    emit runningChanged();
}

std::shared_ptr<const HoleAnatomyAnswer> HoleAnatomyCoordinator::answer() const
{
    return m_key ? m_controller.known(*m_key, m_rescue) : nullptr;
}

// A run inside a listed hole selects that hole; another run of the hole's row leaves its story
// shown (the budgets around a hole are part of it); a run of another row clears the panel.
void HoleAnatomyCoordinator::selectionChanged()
{
    const std::optional<SelectedRun> &run = m_parts.selection->current();
    if (!run)
        return;
    if (const std::optional<int> row = SelectedRunPresenter::holeRowOf(*m_parts.holes, *m_parts.sweep, *run))
        showHole(*row);
    else if (m_key && run->identity.row != m_key->row)
        forgetShown({});
}

void HoleAnatomyCoordinator::holesChanged()
{
    if (!m_key)
        return;
    for (int i = 0; i < m_parts.holes->rowCount(); ++i)
        if (keyOf(i) == m_key)
            return;
    forgetShown(tr("The hole told here (%1) is not in the Holes table any more: its row was swept again, mapped exactly or left out.")
                    .arg(holeTitle()));
}

void HoleAnatomyCoordinator::forgetShown(const QString &why)
{
    m_controller.cancel();
    m_key.reset();
    m_request.reset();
    m_pending = false;
    m_figure.clear();
    m_parts.panel->showIntroduction(why);
    emit explained();
    emit runningChanged();
}

std::optional<HoleKey> HoleAnatomyCoordinator::keyOf(int holeRow) const
{
    if (holeRow < 0 || holeRow >= m_parts.holes->rowCount())
        return std::nullopt;
    const HoleListModel::Entry &entry = m_parts.holes->entry(holeRow);
    const SweepResultModel &sweep = *m_parts.sweep;
    if (entry.policy >= sweep.policyCount())
        return std::nullopt;
    HoleKey key{sweep.rowIdentity(entry.policy), 0, 0};
    if (entry.exact) {
        key.firstFail = entry.exact->firstFail;
        key.lastFail = entry.exact->lastFail;
    } else {
        key.firstFail = sweep.request(entry.policy, entry.hole.firstFail).config.budget;
        key.lastFail = sweep.request(entry.policy, entry.hole.lastFail).config.budget;
    }
    return key;
}

void HoleAnatomyCoordinator::showHole(int holeRow)
{
    const std::optional<HoleKey> found = keyOf(holeRow);
    if (!found || !m_program)
        return;
    const HoleListModel::Entry &entry = m_parts.holes->entry(holeRow);
    const SweepResultModel &sweep = *m_parts.sweep;
    const HoleKey key = *found;
    if (m_key == key && (!m_pending || m_controller.running()))
        return;
    const bool sameHole = m_key == key;
    m_key = key;
    m_request = sweep.request(entry.policy, 0);
    m_exactBounds = entry.exact.has_value();
    if (!m_exactBounds)
        m_gridRange = {QString::fromStdString(sweep.grid()[entry.hole.firstFail].text),
                       QString::fromStdString(sweep.grid()[entry.hole.lastFail].text)};
    if (!m_offered && m_parts.dock->isHidden()) {
        m_offered = true;
        m_parts.openDock ? m_parts.openDock() : m_parts.dock->show();
    }
    if (!m_parts.dock->isHidden())
        m_parts.dock->raise();
    if (const QString problem = HoleAnatomyController::problemOf(*m_request); !problem.isEmpty()) {
        m_controller.cancel();
        m_pending = false;
        m_parts.panel->showProblem(holeTitle(), problem);
        emit explained();
        return;
    }
    if (const auto known = m_controller.known(key, m_rescue)) {
        m_controller.cancel();
        m_pending = false;
        showAnswer(*known);
        return;
    }
    m_pending = true;
    if (!sameHole || !m_controller.running())
        startIfShown();
}

// Explaining costs replays: only while someone can read the story.
void HoleAnatomyCoordinator::startIfShown()
{
    if (!m_pending || !m_key || !m_request || m_parts.dock->isHidden())
        return;
    m_pending = false;
    HoleAnatomyRequest request;
    request.key = *m_key;
    request.program = m_program;
    request.baseline = m_parts.sweep->baseline();
    request.request = *m_request;
    request.exactBounds = m_exactBounds;
    request.rescue = m_rescue;
    request.threads = m_parts.threads ? m_parts.threads() : 0;
    m_parts.panel->showExplaining(holeTitle());
    m_controller.explain(std::move(request));
    const Bytes memory = m_parts.sweep->baseline().memory;
    m_parts.panel->showProgress(
        tr("Explaining the hole at %1").arg(memory > 0 ? double(m_key->firstFail) / double(memory) : 0.0, 0, 'g', 6), 0, 0);
    emit runningChanged();
}

void HoleAnatomyCoordinator::cancel()
{
    m_controller.cancel();
}

void HoleAnatomyCoordinator::setRescue(bool rescue)
{
    if (rescue == m_rescue)
        return;
    m_rescue = rescue;
    if (!m_key || !m_request || !HoleAnatomyController::problemOf(*m_request).isEmpty())
        return;
    if (const auto known = m_controller.known(*m_key, m_rescue)) {
        m_controller.cancel();
        m_pending = false;
        showAnswer(*known);
        return;
    }
    m_pending = true;
    startIfShown();
}

// "DTR · sum · overhead limit 2: failing 0.419 to 0.420 on the grid", or the exact bytes of a
// mapped row's hole: the row named by everything that sets it apart on the strip. A grid's
// failing stretch may hold more than one hole: the one told is then named to the byte.
QString HoleAnatomyCoordinator::holeTitle(const HoleAnatomy *told) const
{
    if (!m_key || !m_request)
        return {};
    const RunConfig &config = m_request->config;
    const QString dot = QStringLiteral(" \u00b7 ");
    QString row = QString::fromStdString(config.policy.name) + dot +
                  QString::fromUtf8(allocatorKindName(config.allocator.kind).data());
    if (config.runtime != RuntimeKind::Eager)
        row += dot + QString::fromUtf8(runtimeName(config.runtime).data());
    row += dot + tr("overhead limit %1").arg(m_request->overheadLimit, 0, 'g', 6);
    if (m_exactBounds)
        return tr("%1: failing %2 to %3 B (exact map)")
            .arg(row, HoleStoryHtmlWriter::digits(m_key->firstFail), HoleStoryHtmlWriter::digits(m_key->lastFail));
    const QString grid = tr("%1: failing %2 to %3 on the grid").arg(row, m_gridRange.first, m_gridRange.second);
    if (!told)
        return grid;
    return tr("%1; the hole told: %2 to %3 B")
        .arg(grid, HoleStoryHtmlWriter::digits(told->firstFail), HoleStoryHtmlWriter::digits(told->lastFail));
}

void HoleAnatomyCoordinator::showAnswer(const HoleAnatomyAnswer &answer)
{
    drawFigure(answer);
    if (!answer.anatomy) {
        m_parts.panel->showProblem(holeTitle(), tr("No story: %1.").arg(answer.problem));
        emit explained();
        return;
    }
    const Baseline &baseline = m_parts.sweep->baseline();
    HoleStoryHtmlWriter writer(baseline);
    tellHoleAnatomy(*answer.anatomy, HoleReportContext{*m_program, baseline}, writer);
    m_parts.panel->showStory(holeTitle(&*answer.anatomy), writer.html());
    emit explained();
}

// The lower edge's runs with the moments of its story: where the passing run evicts the victim
// the failing one keeps, the failing run's later eviction, its reuse, and the failure.
void HoleAnatomyCoordinator::drawFigure(const HoleAnatomyAnswer &answer)
{
    if (!answer.anatomy || !answer.passingPlot || !answer.failingPlot) {
        m_figure.clear();
        return;
    }
    const EdgeStory &lower = answer.anatomy->lower;
    std::vector<AnatomyMoment> moments = HoleAnatomyFigure::momentsOf(lower, *m_program);
    m_figure.setContent(answer.passingPlot, answer.failingPlot, std::move(moments),
                        tr("Hole anatomy of %1 at %2 B").arg(QString::fromStdString(m_request->config.policy.name))
                            .arg(answer.anatomy->firstFail));
}

RunRequest HoleAnatomyCoordinator::requestAt(Bytes budget) const
{
    RunRequest request = *m_request;
    request.config.budget = budget;
    const Bytes memory = m_parts.sweep->baseline().memory;
    request.ratio = memory > 0 ? double(budget) / double(memory) : 0;
    return request;
}

// The run at a budget as the strip would select it: the map's interval holding it, the grid's
// cell at it, or the run at that byte alone.
std::optional<SelectedRun> HoleAnatomyCoordinator::runAt(Bytes budget) const
{
    const SweepResultModel &sweep = *m_parts.sweep;
    const std::optional<std::size_t> policy = m_key ? sweep.rowOf(m_key->row) : std::nullopt;
    if (!policy || !m_request)
        return std::nullopt;
    if (const MappedRow *mapped = m_parts.maps->row(*m_request))
        if (const RunResult *interval = mapped->intervalAt(budget))
            return sweep.intervalRun(*policy, interval->interval);
    if (const std::optional<std::size_t> column = sweep.columnOf(*policy, budget))
        return sweep.runAt(*policy, *column);
    const RunRequest request = requestAt(budget);
    return SelectedRun{RunIdentity{m_key->row, budget}, request, std::nullopt};
}

void HoleAnatomyCoordinator::selectBudget(Bytes budget)
{
    if (std::optional<SelectedRun> run = runAt(budget))
        m_parts.selection->select(std::move(*run));
    else
        emit message(tr("The hole's row is no longer in the strip"), 4000);
}

// A step or tensor: the edge's failing run, its passing run overlaid, at that moment.
void HoleAnatomyCoordinator::followLink(const HoleLink &link)
{
    const std::shared_ptr<const HoleAnatomyAnswer> known = answer();
    if (link.kind == HoleLink::Kind::Budget) {
        selectBudget(link.budget);
        return;
    }
    if (!known || !known->anatomy)
        return;
    const HoleAnatomy &anatomy = *known->anatomy;
    const EdgeStory &story = link.edge == HoleStoryWriter::Edge::Upper ? anatomy.upper
                             : link.edge == HoleStoryWriter::Edge::Given && anatomy.given ? *anatomy.given
                                                                                         : anatomy.lower;
    const Bytes passing = story.failingIsSmaller ? story.largerBudget : story.smallerBudget;
    std::optional<SelectedRun> failing = runAt(story.failingBudget());
    if (!failing) {
        emit message(tr("The hole's row is no longer in the strip"), 4000);
        return;
    }
    m_parts.runViews->compareWith(requestAt(passing), failing->identity);
    m_parts.selection->select(std::move(*failing));
    m_parts.runViews->showMoment(link.step.value_or(story.cascade.step), link.tensor);
}

} // namespace rematlens
