#include "selected_run_presenter.h"

#include "views/common/run_selection.h"
#include "views/strip/mapped_row.h"
#include "views/tables/exact_map_model.h"
#include "views/tables/hole_list_model.h"
#include "views/tables/run_details_model.h"
#include "views/tables/sweep_result_model.h"

#include <QTableView>

namespace rematlens {

SelectedRunPresenter::SelectedRunPresenter(Parts parts, QObject *parent) : QObject(parent), m_parts(parts)
{
    connect(m_parts.selection, &RunSelection::changed, this, &SelectedRunPresenter::refresh);
}

void SelectedRunPresenter::refresh()
{
    showDetails();
    markHole();
}

void SelectedRunPresenter::showDetails()
{
    const std::optional<SelectedRun> &run = m_parts.selection->current();
    const SweepResultModel &sweep = *m_parts.sweep;
    const std::optional<std::size_t> row = run ? sweep.rowOf(run->identity.row) : std::nullopt;
    if (!run || !row) {
        m_parts.details->clear();
        return;
    }
    if (run->interval) {
        const MappedRow *mapped = m_parts.maps->row(run->request);
        const RunResult *interval = mapped ? mapped->intervalAt(run->interval->lo) : nullptr;
        m_parts.details->setRun(run->request, interval ? std::optional(*interval) : std::nullopt, sweep.baseline());
        return;
    }
    const std::optional<std::size_t> column = sweep.columnOf(*row, run->identity.budget);
    m_parts.details->setRun(run->request, column ? sweep.result(*row, *column) : std::nullopt, sweep.baseline());
}

std::optional<int> SelectedRunPresenter::holeRowOf(const HoleListModel &holes, const SweepResultModel &sweep,
                                                   const SelectedRun &run)
{
    const std::optional<std::size_t> row = sweep.rowOf(run.identity.row);
    if (!row)
        return std::nullopt;
    const std::optional<std::size_t> column = sweep.columnOf(*row, run.identity.budget);
    const Bytes budget = run.identity.budget;
    for (int i = 0; i < holes.rowCount(); ++i) {
        const HoleListModel::Entry &entry = holes.entry(i);
        if (entry.policy != *row)
            continue;
        // A map's hole holds every budget in its bounds, whether picked as an interval or a grid cell.
        const bool inside = entry.exact ? entry.exact->firstFail <= budget && budget <= entry.exact->lastFail
                                        : !run.interval && column && entry.hole.firstFail <= *column &&
                                              *column <= entry.hole.lastFail;
        if (inside)
            return i;
    }
    return std::nullopt;
}

void SelectedRunPresenter::markHole()
{
    const std::optional<SelectedRun> &run = m_parts.selection->current();
    const std::optional<int> row = run ? holeRowOf(*m_parts.holes, *m_parts.sweep, *run) : std::nullopt;
    if (!row) {
        m_parts.holeView->clearSelection();
        return;
    }
    m_parts.holeView->selectRow(*row);
    m_parts.holeView->scrollTo(m_parts.holes->index(*row, 0));
}

} // namespace rematlens
