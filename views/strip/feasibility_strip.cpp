#include "views/strip/feasibility_strip.h"

#include "views/tables/hole_list_model.h"
#include "views/strip/outcome_palette.h"
#include "views/tables/sweep_result_model.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include "views/common/number_format.h"

#include <QLocale>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace rematlens {

FeasibilityStrip::FeasibilityStrip(QWidget *parent) : QWidget(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setToolTip(tr("Click a cell or use the arrow keys to select a run; drag across budgets and press R to "
                  "sweep that range at a finer step"));
    m_repaintTimer.setSingleShot(true);
    m_repaintTimer.setInterval(40); // results stream in; redraw at most 25 times a second
    connect(&m_repaintTimer, &QTimer::timeout, this, qOverload<>(&QWidget::update));
}

void FeasibilityStrip::setModels(const SweepResultModel *sweep, const HoleListModel *holes)
{
    m_sweep = sweep;
    m_holes = holes;
    connect(sweep, &QAbstractItemModel::modelReset, this, [this] {
        m_selection.reset();
        m_range.reset();
        update();
    });
    connect(sweep, &QAbstractItemModel::dataChanged, this, &FeasibilityStrip::scheduleRepaint);
    connect(holes, &QAbstractItemModel::modelReset, this, &FeasibilityStrip::scheduleRepaint);
    connect(holes, &QAbstractItemModel::dataChanged, this, &FeasibilityStrip::scheduleRepaint);
}

void FeasibilityStrip::scheduleRepaint()
{
    if (!m_repaintTimer.isActive())
        m_repaintTimer.start();
}

QSize FeasibilityStrip::sizeHint() const
{
    return {960, 320};
}

QSize FeasibilityStrip::minimumSizeHint() const
{
    return {420, 200};
}

StripFigure FeasibilityStrip::asFigure() const
{
    return StripFigure({StripFigure::Panel{m_traceName, m_sweep, m_holes}});
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
    if (cell == m_selection)
        return;
    m_selection = cell;
    update();
    if (cell)
        emit selectionChanged(cell->policy, cell->column);
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
    setSelection(Cell{m_selection ? m_selection->policy : 0, best});
}

void FeasibilityStrip::moveSelection(int dRow, int dColumn)
{
    if (!m_sweep || m_sweep->gridSize() == 0)
        return;
    const Cell current = m_selection.value_or(Cell{0, 0});
    const int rows = static_cast<int>(m_sweep->policyCount());
    const int columns = static_cast<int>(m_sweep->gridSize());
    const int row = std::clamp(static_cast<int>(current.policy) + dRow, 0, rows - 1);
    const int column = std::clamp(static_cast<int>(current.column) + dColumn, 0, columns - 1);
    setSelection(Cell{static_cast<std::size_t>(row), static_cast<std::size_t>(column)});
}

void FeasibilityStrip::keyPressEvent(QKeyEvent *event)
{
    const int page = std::max<int>(1, m_sweep ? static_cast<int>(m_sweep->gridSize()) / 20 : 1);
    switch (event->key()) {
    case Qt::Key_Left: moveSelection(0, event->modifiers() & Qt::ShiftModifier ? -page : -1); break;
    case Qt::Key_Right: moveSelection(0, event->modifiers() & Qt::ShiftModifier ? page : 1); break;
    case Qt::Key_Up: moveSelection(-1, 0); break;
    case Qt::Key_Down: moveSelection(1, 0); break;
    case Qt::Key_Home: moveSelection(0, -1 << 30); break;
    case Qt::Key_End: moveSelection(0, 1 << 30); break;
    case Qt::Key_R:
        if (m_range)
            emit refineRequested(m_range->first, m_range->second);
        break;
    case Qt::Key_Escape:
        m_range.reset();
        update();
        break;
    default: QWidget::keyPressEvent(event); return;
    }
    event->accept();
}

void FeasibilityStrip::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton || !m_sweep)
        return;
    const StripGeometry g = geometryFor(rect());
    m_pressPosition = event->position().toPoint();
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
    const std::optional<int> column = geometryFor(rect()).columnAt(event->position().x());
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
        if (column)
            setSelection(Cell{row ? static_cast<std::size_t>(*row) : (m_selection ? m_selection->policy : 0),
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
    QAction *chosen = menu.exec(event->globalPos());
    if (chosen == refine && m_range)
        emit refineRequested(m_range->first, m_range->second);
    else if (chosen == clear) {
        m_range.reset();
        update();
    }
}

bool FeasibilityStrip::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip && m_sweep && m_sweep->gridSize() > 0) {
        auto *help = static_cast<QHelpEvent *>(event);
        const StripGeometry g = geometryFor(rect());
        const std::optional<int> column = g.columnAt(help->pos().x());
        std::optional<int> row = g.rowAt(help->pos().y());
        if (!row && g.plotArea().contains(help->pos()))
            row = m_selection ? static_cast<int>(m_selection->policy) : 0;
        if (column && row && help->pos().x() >= g.cellArea().left()) {
            QToolTip::showText(help->globalPos(),
                               tooltipFor(Cell{static_cast<std::size_t>(*row), static_cast<std::size_t>(*column)}), this);
            return true;
        }
    }
    return QWidget::event(event);
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
        text += tr("<br>overhead %1×").arg(static_cast<double>(result->clock) / static_cast<double>(m_sweep->baseline().compute), 0, 'f', 3);
    text += tr("<br>peak memory %1 B<br>%2 evictions, %3 remats")
                .arg(c.toString(result->maxMemory))
                .arg(result->evictions + result->releasedEvictions)
                .arg(result->remats);
    if (result->failure)
        text += tr("<br>%1 B short materializing %2").arg(c.toString(result->failure->bytesShort),
                                                         QString::fromStdString(result->failure->tensor));
    return text;
}

void FeasibilityStrip::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    paint(painter, rect());
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
        p.fillRect(QRectF(a.left(), plot.top(), b.right() - a.left(), cells.bottom() - plot.top()), QColor(0, 114, 178, 40));
    }
    if (m_selection) {
        p.setRenderHint(QPainter::Antialiasing, false);
        const QRectF cell = g.cell(static_cast<int>(m_selection->policy), static_cast<int>(m_selection->column));
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

} // namespace rematlens
