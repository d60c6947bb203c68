#include "views/strip/feasibility_strip.h"

#include "views/tables/schedule_rows_model.h"

#include "views/strip/mapped_interval_text.h"
#include "views/strip/mapped_row.h"
#include "views/strip/outcome_palette.h"
#include "views/tables/exact_map_model.h"
#include "views/tables/hole_list_model.h"
#include "views/tables/sweep_result_model.h"

#include "views/common/number_format.h"
#include "views/common/run_selection.h"
#include <QContextMenuEvent>
#include <QCursor>
#include <QHelpEvent>
#include <QKeyEvent>

#include <QLocale>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace rematlens {

FeasibilityStrip::FeasibilityStrip(QWidget *parent) : QWidget(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setToolTip(tr("Click a cell or use the arrow keys to select a run. Wheel or +/- zooms at the cursor, "
                  "drag pans, 0 shows every budget. Shift+drag marks budgets; R sweeps them at a finer step"));
    m_repaintTimer.setSingleShot(true);
    m_repaintTimer.setInterval(40); // results stream in; redraw at most 25 times a second
    connect(&m_repaintTimer, &QTimer::timeout, this, qOverload<>(&QWidget::update));
    setRunSelection(new RunSelection(this)); // its own until the window shares one
}

void FeasibilityStrip::setModels(const SweepResultModel *sweep, const HoleListModel *holes)
{
    m_sweep = sweep;
    m_holes = holes;
    connect(sweep, &QAbstractItemModel::modelReset, this, [this] {
        m_range.reset();
        updateGeometry();
        resetView();
        figureChanged();
    });
    connect(sweep, &QAbstractItemModel::dataChanged, this, &FeasibilityStrip::scheduleRepaint);
    connect(holes, &QAbstractItemModel::modelReset, this, &FeasibilityStrip::scheduleRepaint);
    connect(holes, &QAbstractItemModel::dataChanged, this, &FeasibilityStrip::scheduleRepaint);
}

void FeasibilityStrip::setRunSelection(RunSelection *selection)
{
    if (m_runSelection)
        disconnect(m_runSelection, nullptr, this, nullptr);
    m_runSelection = selection;
    connect(selection, &RunSelection::changed, this, [this] {
        if (const auto cell = this->selection())
            keepInView(cell->column);
        update();
    });
}

std::optional<FeasibilityStrip::Interval> FeasibilityStrip::selectedInterval() const
{
    if (!m_runSelection || !m_sweep || !m_runSelection->current() || !m_runSelection->current()->interval)
        return std::nullopt;
    const SelectedRun &run = *m_runSelection->current();
    const std::optional<std::size_t> row = m_sweep->rowOf(run.identity.row);
    if (!row)
        return std::nullopt;
    return Interval{*row, run.interval->lo};
}

std::optional<FeasibilityStrip::Cell> FeasibilityStrip::selection() const
{
    if (!m_runSelection || !m_sweep || !m_runSelection->current() || m_sweep->gridSize() == 0)
        return std::nullopt;
    const SelectedRun &run = *m_runSelection->current();
    const std::optional<std::size_t> row = m_sweep->rowOf(run.identity.row);
    if (!row)
        return std::nullopt;
    if (!run.interval) {
        const std::optional<std::size_t> column = m_sweep->columnOf(*row, run.identity.budget);
        return column ? std::optional(Cell{*row, *column}) : std::nullopt;
    }
    const StripGeometry g = geometryFor(rect());
    const int column = std::clamp(static_cast<int>(std::floor(g.columnOfBudget(static_cast<double>(run.interval->lo)))),
                                  0, static_cast<int>(m_sweep->gridSize()) - 1);
    return Cell{*row, static_cast<std::size_t>(column)};
}

void FeasibilityStrip::setScheduleRows(const ScheduleRowsModel *schedules)
{
    m_schedules = schedules;
    connect(schedules, &ScheduleRowsModel::changed, this, &FeasibilityStrip::scheduleRepaint);
    connect(schedules, &ScheduleRowsModel::changed, this, &QWidget::updateGeometry);
}

void FeasibilityStrip::setExactMaps(const ExactMapModel *maps)
{
    m_maps = maps;
    connect(maps, &ExactMapModel::changed, this, &FeasibilityStrip::scheduleRepaint);
}

const MappedRow *FeasibilityStrip::mappedRow(std::size_t policy) const
{
    if (!m_maps || !m_sweep || policy >= m_sweep->policyCount() || m_sweep->gridSize() == 0)
        return nullptr;
    return m_maps->row(m_sweep->request(policy, 0));
}

// Rows drawn from an exact map zoom down to a few bytes across the strip; grid rows alone stop
// at one column.
double FeasibilityStrip::minimumVisibleColumns() const
{
    bool mapped = false;
    for (std::size_t p = 0; m_sweep && p < m_sweep->policyCount(); ++p)
        mapped = mapped || mappedRow(p);
    const double bytesPerColumn = geometryFor(rect()).bytesPerColumn;
    return mapped && bytesPerColumn > 0 ? std::min(1.0, 8.0 / bytesPerColumn) : 1.0;
}

void FeasibilityStrip::figureChanged()
{
    m_figureLayer.invalidate();
    update();
}

void FeasibilityStrip::setTraceName(const QString &name)
{
    m_traceName = name;
    figureChanged();
}

void FeasibilityStrip::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange ||
        event->type() == QEvent::StyleChange)
        figureChanged();
    QWidget::changeEvent(event);
}

// The layer is stale at once (any paint shows the new data); the repaint itself waits.
void FeasibilityStrip::scheduleRepaint()
{
    m_figureLayer.invalidate();
    if (!m_repaintTimer.isActive())
        m_repaintTimer.start();
}

QSize FeasibilityStrip::sizeHint() const
{
    return {960, 320};
}

// Every row keeps a readable height, and the overhead plot room for its title: a window too
// small for them scrolls the strip (it sits in a scroll area) instead of squashing its rows.
QSize FeasibilityStrip::minimumSizeHint() const
{
    std::size_t rows = m_sweep ? m_sweep->policyCount() : 0;
    if (m_schedules && m_sweep && m_schedules->columnCount() == m_sweep->gridSize())
        rows += m_schedules->rowCount();
    const int lineHeight = fontMetrics().height();
    return {360, lineHeight * (13 + 2 * static_cast<int>(std::max<std::size_t>(rows, 1)))};
}

StripFigure FeasibilityStrip::asFigure() const
{
    StripFigure::Panel panel{m_traceName, m_sweep, m_holes};
    panel.maps = m_maps;
    panel.schedules = m_schedules;
    if (m_view.zoomed()) {
        panel.viewFrom = m_view.from;
        panel.viewTo = m_view.to;
    }
    return StripFigure({panel});
}

void FeasibilityStrip::resetView()
{
    // At least one column stays in view, however far in the wheel goes.
    m_view = ZoomWindow::whole(m_sweep ? double(m_sweep->gridSize()) : 1.0, minimumVisibleColumns());
}

void FeasibilityStrip::showColumns(double from, double to)
{
    m_view.show(from, to);
    update();
}

// Column c spans [c, c + 1) around its grid ratio; the grid is evenly spaced.
std::optional<std::pair<double, double>> FeasibilityStrip::viewedRatios() const
{
    if (!m_view.zoomed() || !m_sweep || m_sweep->gridSize() < 2)
        return std::nullopt;
    const auto &grid = m_sweep->grid();
    const double step = (grid.back().ratio - grid.front().ratio) / double(grid.size() - 1);
    const auto ratioAt = [&](double column) { return grid.front().ratio + (column - 0.5) * step; };
    return std::pair(ratioAt(m_view.from), ratioAt(m_view.to));
}

void FeasibilityStrip::showRatios(double from, double to)
{
    if (!m_sweep || m_sweep->gridSize() < 2)
        return;
    const auto &grid = m_sweep->grid();
    const double step = (grid.back().ratio - grid.front().ratio) / double(grid.size() - 1);
    if (!(step > 0))
        return;
    const auto columnAt = [&](double ratio) { return (ratio - grid.front().ratio) / step + 0.5; };
    if (m_view.extent != double(m_sweep->gridSize()))
        resetView();
    showColumns(columnAt(from), columnAt(to));
}

void FeasibilityStrip::showBudgets(double from, double to)
{
    if (!m_sweep || m_sweep->gridSize() == 0)
        return;
    const StripGeometry g = geometryFor(rect());
    if (!(g.bytesPerColumn > 0))
        return;
    if (m_view.extent != double(m_sweep->gridSize()))
        resetView();
    m_view.minimumWidth = minimumVisibleColumns();
    showColumns(g.columnOfBudget(from), g.columnOfBudget(to));
}

void FeasibilityStrip::resetZoom()
{
    m_view.reset();
    update();
}

void FeasibilityStrip::zoomAt(double factor, double column)
{
    if (!m_sweep || m_sweep->gridSize() == 0)
        return;
    if (m_view.extent != double(m_sweep->gridSize()))
        resetView();
    m_view.minimumWidth = minimumVisibleColumns();
    m_view.zoom(factor, column);
    update();
}

// Arrow keys may walk out of a zoomed view: it follows the selection.
void FeasibilityStrip::keepInView(std::size_t column)
{
    if (!m_view.zoomed())
        return;
    const double c = double(column);
    if (c < m_view.from)
        m_view.show(c, c + m_view.width());
    else if (c + 1 > m_view.to)
        m_view.show(c + 1 - m_view.width(), c + 1);
}

StripGeometry FeasibilityStrip::geometryFor(const QRectF &bounds) const
{
    return asFigure().panelGeometry(bounds, screenStyle(), 0);
}

void FeasibilityStrip::paintFigure(QPainter &painter, const QRectF &bounds, const FigureStyle &style) const
{
    asFigure().paintFigure(painter, bounds, style);
}

QString FeasibilityStrip::figureCsv() const
{
    return asFigure().figureCsv();
}

QString FeasibilityStrip::figureTitle() const
{
    return asFigure().figureTitle();
}

void FeasibilityStrip::setSelection(std::optional<Cell> cell)
{
    if (cell && (!m_sweep || cell->policy >= m_sweep->policyCount() || cell->column >= m_sweep->gridSize()))
        return;
    if (!m_runSelection)
        return;
    if (!cell) {
        m_runSelection->clear();
        return;
    }
    const bool changed = selection() != cell || selectedInterval();
    m_runSelection->select(m_sweep->runAt(cell->policy, cell->column));
    keepInView(cell->column);
    update();
    if (changed)
        emit selectionChanged(cell->policy, cell->column);
}

bool FeasibilityStrip::selectInterval(std::size_t policy, Bytes budget)
{
    const MappedRow *row = mappedRow(policy);
    const RunResult *interval = row ? row->intervalAt(budget) : nullptr;
    if (!interval || !m_runSelection)
        return false;
    const Interval picked{policy, interval->interval.lo};
    if (selectedInterval() == picked)
        return true;
    m_runSelection->select(m_sweep->intervalRun(policy, interval->interval));
    const Bytes end = interval->interval.hi.value_or(row->summary.range.end);
    keepBudgetsInView(static_cast<double>(picked.lo), static_cast<double>(end));
    update();
    emit intervalSelected(policy, picked.lo);
    return true;
}

// Steps through a mapped row's intervals; false when there is no interval to go to (the grid
// keys take over).
bool FeasibilityStrip::moveInterval(int dRow, int steps)
{
    const std::optional<Interval> selected = selectedInterval();
    if (!selected)
        return false;
    const MappedRow *row = mappedRow(selected->policy);
    const std::optional<std::size_t> index = row ? row->indexAt(selected->lo) : std::nullopt;
    if (!index)
        return false;
    if (dRow != 0) {
        const long target = static_cast<long>(selected->policy) + dRow;
        if (target < 0 || target >= static_cast<long>(m_sweep->policyCount()))
            return true;
        if (selectInterval(static_cast<std::size_t>(target), selected->lo))
            return true;
        return false; // that row has no map there: the grid keys select its cell
    }
    const long next = std::clamp(static_cast<long>(*index) + steps, 0L, static_cast<long>(row->intervals.size()) - 1);
    const Bytes lo = std::max(row->intervals[static_cast<std::size_t>(next)].interval.lo, row->summary.range.from);
    return selectInterval(selected->policy, lo);
}

void FeasibilityStrip::keepBudgetsInView(double from, double end)
{
    if (!m_view.zoomed())
        return;
    const StripGeometry g = geometryFor(rect());
    const double c0 = g.columnOfBudget(from);
    const double c1 = g.columnOfBudget(end);
    if (c1 >= m_view.from && c0 <= m_view.to)
        return;
    const double middle = (c0 + c1) / 2;
    m_view.show(middle - m_view.width() / 2, middle + m_view.width() / 2);
}

void FeasibilityStrip::selectRatio(double ratio)
{
    if (!m_sweep || m_sweep->gridSize() == 0)
        return;
    const auto &grid = m_sweep->grid();
    std::size_t best = 0;
    for (std::size_t i = 1; i < grid.size(); ++i)
        if (std::abs(grid[i].ratio - ratio) < std::abs(grid[best].ratio - ratio))
            best = i;
    const std::optional<Cell> current = selection();
    setSelection(Cell{current ? current->policy : 0, best});
}

void FeasibilityStrip::moveSelection(int dRow, int dColumn)
{
    if (!m_sweep || m_sweep->gridSize() == 0)
        return;
    const Cell current = selection().value_or(Cell{0, 0});
    const int rows = static_cast<int>(m_sweep->policyCount());
    const int columns = static_cast<int>(m_sweep->gridSize());
    const int row = std::clamp(static_cast<int>(current.policy) + dRow, 0, rows - 1);
    const int column = std::clamp(static_cast<int>(current.column) + dColumn, 0, columns - 1);
    setSelection(Cell{static_cast<std::size_t>(row), static_cast<std::size_t>(column)});
}

// +/- zoom at the cursor when it is over the cells or the plot, else at the selected interval
// or run, else at the middle of the view.
double FeasibilityStrip::zoomAnchor() const
{
    const QPoint cursor = mapFromGlobal(QCursor::pos());
    const StripGeometry geometry = geometryFor(rect());
    if (rect().contains(cursor) && cursor.x() >= geometry.cellArea().left() && cursor.x() <= geometry.cellArea().right())
        return geometry.columnPosition(cursor.x());
    const std::optional<Interval> interval = selectedInterval();
    if (interval)
        if (const MappedRow *row = mappedRow(interval->policy))
            if (const RunResult *r = row->intervalAt(interval->lo)) {
                const StripGeometry g = geometryFor(rect());
                const Bytes end = r->interval.hi.value_or(row->summary.range.end);
                return g.columnOfBudget((static_cast<double>(r->interval.lo) + static_cast<double>(end)) / 2);
            }
    const std::optional<Cell> cell = selection();
    return cell ? cell->column + 0.5 : (m_view.from + m_view.to) / 2;
}

void FeasibilityStrip::keyPressEvent(QKeyEvent *event)
{
    const int page = std::max<int>(1, m_sweep ? static_cast<int>(m_sweep->gridSize()) / 20 : 1);
    switch (event->key()) {
    case Qt::Key_Left:
        if (!moveInterval(0, event->modifiers() & Qt::ShiftModifier ? -10 : -1))
            moveSelection(0, event->modifiers() & Qt::ShiftModifier ? -page : -1);
        break;
    case Qt::Key_Right:
        if (!moveInterval(0, event->modifiers() & Qt::ShiftModifier ? 10 : 1))
            moveSelection(0, event->modifiers() & Qt::ShiftModifier ? page : 1);
        break;
    case Qt::Key_Up:
        if (!moveInterval(-1, 0))
            moveSelection(-1, 0);
        break;
    case Qt::Key_Down:
        if (!moveInterval(1, 0))
            moveSelection(1, 0);
        break;
    case Qt::Key_Home:
        moveSelection(0, -1 << 30);
        break;
    case Qt::Key_End:
        moveSelection(0, 1 << 30);
        break;
    case Qt::Key_R:
        if (m_range)
            emit refineRequested(m_range->first, m_range->second);
        break;
    case Qt::Key_Escape:
        m_range.reset();
        update();
        break;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomAt(0.5, zoomAnchor());
        break;
    case Qt::Key_Minus:
        zoomAt(2.0, zoomAnchor());
        break;
    case Qt::Key_0:
        resetZoom();
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

void FeasibilityStrip::wheelEvent(QWheelEvent *event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0 || !m_sweep || m_sweep->gridSize() == 0) {
        event->ignore();
        return;
    }
    zoomAt(std::pow(0.8, steps), geometryFor(rect()).columnPosition(event->position().x()));
    event->accept();
}

void FeasibilityStrip::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton || !m_sweep)
        return;
    const StripGeometry g = geometryFor(rect());
    m_pressPosition = event->position().toPoint();
    m_pressViewFrom = m_view.from;
    m_marking = event->modifiers() & Qt::ShiftModifier;
    m_dragStart = g.columnAt(event->position().x());
    m_dragging = false;
}

void FeasibilityStrip::mouseMoveEvent(QMouseEvent *event)
{
    if (!(event->buttons() & Qt::LeftButton) || !m_dragStart)
        return;
    if (!m_dragging && (event->position().toPoint() - m_pressPosition).manhattanLength() < 5)
        return;
    m_dragging = true;
    const StripGeometry g = geometryFor(rect());
    if (!m_marking) { // pan: the budget under the press stays under the cursor
        const double moved = g.columnPosition(event->position().x()) - g.columnPosition(m_pressPosition.x());
        m_view.show(m_pressViewFrom - moved, m_pressViewFrom - moved + m_view.width());
        update();
        return;
    }
    const std::optional<int> column = g.columnAt(event->position().x());
    if (column) {
        const auto a = *m_dragStart;
        const auto b = static_cast<std::size_t>(*column);
        m_range = std::make_pair(std::min(a, b), std::max(a, b));
        update();
    }
}

void FeasibilityStrip::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton || !m_sweep)
        return;
    const StripGeometry g = geometryFor(rect());
    if (!m_dragging) {
        const std::optional<int> column = g.columnAt(event->position().x());
        const std::optional<int> row = g.rowAt(event->position().y());
        const Bytes budget = static_cast<Bytes>(std::floor(g.budgetAt(event->position().x())));
        if (row && *row >= g.rows) { // a static schedule's row: nothing to replay, its tooltip says all
            m_dragStart.reset();
            return;
        }
        if (row && selectInterval(static_cast<std::size_t>(*row), budget)) {
            m_dragStart.reset();
            return;
        }
        if (column)
            setSelection(Cell{row ? static_cast<std::size_t>(*row) : (selection() ? selection()->policy : 0),
                              static_cast<std::size_t>(*column)});
    }
    m_dragStart.reset();
    m_dragging = false;
}

void FeasibilityStrip::contextMenuEvent(QContextMenuEvent *event)
{
    QMenu menu(this);
    QAction *refine = menu.addAction(tr("Refine the marked range (R)"));
    refine->setEnabled(m_range.has_value());
    QAction *clear = menu.addAction(tr("Clear the marked range (Esc)"));
    clear->setEnabled(m_range.has_value());
    menu.addSeparator();
    QAction *reset = menu.addAction(tr("Show every budget (0)"));
    reset->setEnabled(m_view.zoomed());
    QAction *chosen = menu.exec(event->globalPos());
    if (chosen == refine && m_range)
        emit refineRequested(m_range->first, m_range->second);
    else if (chosen == clear) {
        m_range.reset();
        update();
    } else if (chosen == reset)
        resetZoom();
}

bool FeasibilityStrip::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        if (const QString text = tooltipAt(help->pos()); !text.isEmpty()) {
            QToolTip::showText(help->globalPos(), text, this);
            return true;
        }
    }
    return QWidget::event(event);
}

QString FeasibilityStrip::tooltipAt(const QPoint &position) const
{
    if (!m_sweep || m_sweep->gridSize() == 0)
        return {};
    const StripGeometry g = geometryFor(rect());
    const std::optional<int> column = g.columnAt(position.x());
    std::optional<int> row = g.rowAt(position.y());
    if (row && *row >= g.rows)
        return column && position.x() >= g.cellArea().left()
                   ? scheduleTooltip(static_cast<std::size_t>(*row - g.rows), static_cast<std::size_t>(*column))
                   : QString();
    if (row && position.x() < g.cellArea().left())
        return m_sweep->policyName(static_cast<std::size_t>(*row)); // the row's name in full, elided or not
    if (row) {
        const auto policy = static_cast<std::size_t>(*row);
        const Bytes budget = static_cast<Bytes>(std::floor(g.budgetAt(position.x())));
        if (const MappedRow *mapped = mappedRow(policy); mapped && mapped->covers(budget)) {
            if (const RunResult *interval = mapped->intervalAt(budget))
                return MappedIntervalText::tooltip(m_sweep->policyName(policy), *interval, m_sweep->baseline());
            for (const ByteRange &gap : mapped->summary.unmapped)
                if (budget >= gap.from && budget < gap.end)
                    return MappedIntervalText::unmapped(m_sweep->policyName(policy), gap, m_sweep->baseline());
        }
    }
    if (!row && g.plotArea().contains(position))
        row = selection() ? static_cast<int>(selection()->policy) : 0;
    if (column && row && position.x() >= g.cellArea().left())
        return tooltipFor(Cell{static_cast<std::size_t>(*row), static_cast<std::size_t>(*column)});
    return {};
}

QString FeasibilityStrip::tooltipFor(const Cell &cell) const
{
    const RunRequest &request = m_sweep->request(cell.policy, cell.column);
    const std::optional<RunResult> &result = m_sweep->result(cell.policy, cell.column);
    const QLocale c = numberLocale();
    QString text = tr("<b>%1</b> at ratio %2<br>budget %3 B")
                       .arg(m_sweep->policyName(cell.policy), QString::fromStdString(m_sweep->grid()[cell.column].text),
                            c.toString(request.config.budget));
    if (!result)
        return text + tr("<br>not run yet");
    text += tr("<br>result: <b>%1</b>").arg(OutcomePalette::outcomeLabel(result->outcome));
    if (m_sweep->baseline().compute > 0)
        text +=
            tr("<br>overhead %1×")
                .arg(static_cast<double>(result->clock) / static_cast<double>(m_sweep->baseline().compute), 0, 'f', 3);
    text += tr("<br>peak memory %1 B<br>%2 evictions, %3 remats")
                .arg(c.toString(result->maxMemory))
                .arg(result->evictions + result->releasedEvictions)
                .arg(result->remats);
    if (result->failure)
        text += tr("<br>%1 B short materializing %2")
                    .arg(c.toString(result->failure->bytesShort), QString::fromStdString(result->failure->tensor));
    return text + allocatorText(*result) + tr("<br><i>swept: this grid point's budget alone</i>");
}

// A static schedule's cell: its answer, with the plan or the solver's numbers.
QString FeasibilityStrip::scheduleTooltip(std::size_t row, std::size_t column) const
{
    if (!m_schedules || row >= m_schedules->rowCount() || column >= m_schedules->columnCount())
        return {};
    const QLocale c = numberLocale();
    const ScheduleRowsModel::Row kind = m_schedules->rows()[row];
    QString text = tr("<b>%1</b> at ratio %2<br>budget %3 B")
                       .arg(ScheduleRowsModel::rowName(kind), QString::fromStdString(m_sweep->grid()[column].text),
                            c.toString(m_sweep->request(0, column).config.budget));
    const ScheduleRowsModel::State state = m_schedules->state(row, column);
    text += tr("<br>result: <b>%1</b>").arg(ScheduleRowsModel::stateLabel(state));
    if (kind == ScheduleRowsModel::Row::Checkpointing) {
        if (const auto &plan = m_schedules->checkpoint(column))
            text += tr("<br>%1 plan (the better of √N and greedy): %2 checkpoints, peak %3 B, overhead %4×")
                        .arg(QString::fromStdString(plan->rule))
                        .arg(plan->checkpoints)
                        .arg(c.toString(plan->peak))
                        .arg(plan->overhead, 0, 'f', 3);
        return text;
    }
    const auto &answer = m_schedules->optimal(column);
    if (!answer)
        return text;
    if (!answer->declined.empty())
        return text + tr("<br>not attempted: %1").arg(QString::fromStdString(answer->declined));
    if (state == ScheduleRowsModel::State::Optimal || state == ScheduleRowsModel::State::Feasible)
        text += tr("<br>overhead %1×").arg(answer->overhead, 0, 'f', 3);
    if (state == ScheduleRowsModel::State::Feasible)
        text += tr(", gap %1%").arg(100 * answer->gap, 0, 'f', 2);
    if (answer->status == SolveStatus::Optimal || answer->status == SolveStatus::Feasible)
        text += answer->checked ? tr("<br>replayed by the executor within the budget")
                                : tr("<br>the executor's replay does NOT fit the budget");
    return text + tr("<br>solved in %1 s").arg(answer->seconds, 0, 'f', 2);
}

// What a run under an allocator model adds: its reservations, and why a request failed.
QString FeasibilityStrip::allocatorText(const RunResult &result) const
{
    if (!result.allocation)
        return {};
    const QLocale c = numberLocale();
    QString text = tr("<br>peak reserved %1 B, allocated %2 B, fragmentation %3%")
                       .arg(c.toString(result.allocation->peakReserved), c.toString(result.allocation->peakAllocated))
                       .arg(100.0 * result.allocation->fragmentation(), 0, 'f', 2);
    if (result.failure && result.failure->oomKind)
        text += tr("<br>failed by <b>%1</b>: a request of %2 B, largest free block %3 B")
                    .arg(QString::fromUtf8(oomKindName(*result.failure->oomKind).data()),
                         c.toString(result.failure->request), c.toString(result.failure->largestFreeBlock));
    return text;
}

// The figure comes from a cached layer: selecting, hovering or marking a range repaints only
// the marks, which matters on maps of thousands of intervals.
void FeasibilityStrip::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    if (!m_sweep || m_sweep->gridSize() == 0 || m_sweep->policyCount() == 0) {
        paint(painter, rect());
        return;
    }
    const FigureStyle style = screenStyle();
    const QRectF bounds = rect();
    painter.drawPixmap(0, 0, m_figureLayer.layer(size(), devicePixelRatioF(), {m_view.from, m_view.to},
                                                 [&](QPainter &p) { paintFigure(p, bounds, style); }));
    paintMarks(painter, asFigure().panelGeometry(bounds, style, 0));
}

void FeasibilityStrip::paint(QPainter &p, const QRectF &bounds) const
{
    if (!m_sweep || m_sweep->gridSize() == 0 || m_sweep->policyCount() == 0) {
        p.fillRect(bounds, Qt::white);
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(bounds, Qt::AlignCenter, tr("No sweep yet: choose policies and a range, then Sweep (Ctrl+R)"));
        return;
    }
    const FigureStyle style = screenStyle();
    paintFigure(p, bounds, style);
    paintMarks(p, asFigure().panelGeometry(bounds, style, 0));
}

void FeasibilityStrip::paintMarks(QPainter &p, const StripGeometry &g) const
{
    const QRectF plot = g.plotArea();
    const QRectF cells = g.cellArea();
    if (m_range) {
        const QRectF a = g.cell(0, static_cast<int>(m_range->first));
        const QRectF b = g.cell(0, static_cast<int>(m_range->second));
        p.fillRect(QRectF(a.left(), plot.top(), b.right() - a.left(), cells.bottom() - plot.top()),
                   QColor(0, 114, 178, 40));
    }
    const std::optional<Interval> interval = selectedInterval();
    const std::optional<Cell> selected = selection();
    if (interval) {
        paintIntervalMark(p, g, *interval);
    } else if (selected) {
        p.setRenderHint(QPainter::Antialiasing, false);
        const QRectF cell = g.cell(static_cast<int>(selected->policy), static_cast<int>(selected->column));
        const double x = cell.center().x();
        p.setPen(QPen(screenStyle().selection(), 1, Qt::DashLine));
        p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        QRectF outline = cell;
        if (outline.width() < 5)
            outline.adjust(-(5 - outline.width()) / 2, 0, (5 - outline.width()) / 2, 0);
        p.setPen(QPen(screenStyle().selection(), hasFocus() ? 2.5 : 1.5));
        p.setBrush(Qt::NoBrush);
        p.drawRect(outline.adjusted(-1, -1, 1, 1));
    }
}

// The selected interval outlined at its byte bounds (never narrower than a few pixels), with
// a dashed line through the plot above it.
void FeasibilityStrip::paintIntervalMark(QPainter &p, const StripGeometry &g, const Interval &interval) const
{
    const MappedRow *row = mappedRow(interval.policy);
    const RunResult *r = row ? row->intervalAt(interval.lo) : nullptr;
    if (!r)
        return;
    const QRectF cell = g.cell(static_cast<int>(interval.policy), 0);
    const Bytes end = r->interval.hi.value_or(row->summary.range.end);
    QRectF outline(QPointF(g.xOfBudget(static_cast<double>(r->interval.lo)), cell.top()),
                   QPointF(g.xOfBudget(static_cast<double>(end)), cell.bottom()));
    if (outline.width() < 5)
        outline.adjust(-(5 - outline.width()) / 2, 0, (5 - outline.width()) / 2, 0);
    // Cut at the cells' sides: an interval running past the view has no edge to show there.
    const QRectF cells = g.cellArea();
    const bool cutLeft = outline.left() < cells.left() - 1;
    const bool cutRight = outline.right() > cells.right() + 1;
    outline.setLeft(std::max(outline.left(), cells.left() - 1));
    outline.setRight(std::min(outline.right(), cells.right() + 1));
    if (outline.width() <= 0)
        return;
    const QRectF plot = g.plotArea();
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setPen(QPen(screenStyle().selection(), 1, Qt::DashLine));
    const double x = outline.center().x();
    p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
    p.setPen(QPen(screenStyle().selection(), hasFocus() ? 2.5 : 1.5));
    const QRectF box = outline.adjusted(-1, -1, 1, 1);
    p.drawLine(box.topLeft(), box.topRight());
    p.drawLine(box.bottomLeft(), box.bottomRight());
    if (!cutLeft)
        p.drawLine(box.topLeft(), box.bottomLeft());
    if (!cutRight)
        p.drawLine(box.topRight(), box.bottomRight());
}

KeyBindings FeasibilityStrip::keyBindings()
{
    return {
        {tr("Click"), tr("Select the run of that policy and budget")},
        {tr("Left / Right"), tr("Select the next budget below / above")},
        {tr("Shift+Left / Shift+Right"), tr("Move a twentieth of the grid at a time")},
        {tr("Up / Down"), tr("Select the policy above / below")},
        {tr("Home / End"), tr("Select the lowest / highest budget")},
        {tr("Wheel"), tr("Zoom the budget axis at the cursor")},
        {tr("+ / -"), tr("Zoom the budget axis in / out at the cursor (at the selected run when the cursor is elsewhere)")},
        {tr("Drag"), tr("Pan along the budgets")},
        {tr("0"), tr("Show every budget of the sweep (reset the zoom)")},
        {tr("Shift+Drag"), tr("Mark a range of budgets")},
        {tr("R"), tr("Sweep the marked range ten times finer")},
        {tr("Esc"), tr("Clear the marked range")},
        {tr("Hover"), tr("Show the run's numbers")},
        {tr("Click (mapped row)"), tr("Select the interval of budgets under the cursor")},
        {tr("Left / Right (mapped row)"), tr("Select the next interval below / above (Shift: ten at a time)")},
        {tr("Hover (mapped row)"), tr("Show the interval's bounds in bytes, its width and numbers")},
        {tr("Right click"), tr("Refine or clear the marked range")},
    };
}

} // namespace rematlens
