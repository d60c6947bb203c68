#include "feasibility_strip.h"

#include "hole_list_model.h"
#include "outcome_palette.h"
#include "sweep_result_model.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include "number_format.h"

#include <QLocale>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace rematlens {

namespace {

// A "nice" tick step (1, 2 or 5 times a power of ten) giving about `wanted` ticks over span.
double tickStep(double span, int wanted)
{
    const double raw = span / std::max(1, wanted);
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (double factor : {1.0, 2.0, 5.0, 10.0})
        if (raw <= factor * magnitude)
            return factor * magnitude;
    return 10 * magnitude;
}

// "3.52 GB", "80.9 MB": decimal units, two or three significant digits after the point.
QString byteSize(double bytes)
{
    if (bytes >= 1e9)
        return QString::number(bytes / 1e9, 'f', bytes >= 1e10 ? 1 : 2) + QStringLiteral(" GB");
    return QString::number(bytes / 1e6, 'f', bytes >= 1e8 ? 0 : 1) + QStringLiteral(" MB");
}

} // namespace

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

StripGeometry FeasibilityStrip::geometryFor(const QRectF &bounds) const
{
    StripGeometry g;
    g.bounds = bounds;
    g.columns = m_sweep ? static_cast<int>(m_sweep->gridSize()) : 0;
    g.rows = m_sweep ? static_cast<int>(m_sweep->policyCount()) : 0;
    g.bottomAxisHeight = 66; // tick labels, the axis title, the legend
    return g;
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
    p.fillRect(bounds, Qt::white);
    const StripGeometry g = geometryFor(bounds);
    if (!m_sweep || g.columns == 0 || g.rows == 0) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(bounds, Qt::AlignCenter, tr("No sweep yet: choose policies and a range, then Sweep (Ctrl+R)"));
        return;
    }
    paintCells(p, g);
    paintHoles(p, g);
    paintPlot(p, g);
    paintAxes(p, g);
    paintMarks(p, g);
    paintLegend(p, g);
}

void FeasibilityStrip::paintCells(QPainter &p, const StripGeometry &g) const
{
    p.setRenderHint(QPainter::Antialiasing, false);
    for (int row = 0; row < g.rows; ++row) {
        for (int column = 0; column < g.columns; ++column) {
            const std::optional<RunResult> &r = m_sweep->result(static_cast<std::size_t>(row), static_cast<std::size_t>(column));
            QRectF cell = g.cell(row, column);
            cell.setWidth(cell.width() + 0.6); // no hairline seams between thin cells
            p.fillRect(cell, r ? OutcomePalette::outcome(r->outcome) : OutcomePalette::notRun());
        }
        p.setPen(palette().color(QPalette::Text));
        const QRectF label(g.bounds.left() + 4, g.rowRect(row).top(), g.labelWidth - 10, g.rowRect(row).height());
        p.drawText(label, Qt::AlignRight | Qt::AlignVCenter, m_sweep->policyName(static_cast<std::size_t>(row)));
    }
}

void FeasibilityStrip::paintHoles(QPainter &p, const StripGeometry &g) const
{
    if (!m_holes)
        return;
    p.setRenderHint(QPainter::Antialiasing, true);
    const std::vector<HoleReport> &reports = m_holes->reports();
    for (std::size_t row = 0; row < reports.size() && static_cast<int>(row) < g.rows; ++row) {
        for (const Hole &hole : reports[row].holes) {
            const QRectF first = g.cell(static_cast<int>(row), static_cast<int>(hole.firstFail));
            const QRectF last = g.cell(static_cast<int>(row), static_cast<int>(hole.lastFail));
            QRectF span(first.left(), first.top(), last.right() - first.left(), first.height());
            // Narrow holes are widened on screen so that none disappears between pixels.
            if (span.width() < 5)
                span.adjust(-(5 - span.width()) / 2, 0, (5 - span.width()) / 2, 0);
            p.setPen(QPen(OutcomePalette::hole(), 2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(span.adjusted(1, 1, -1, -1));
            // A marker above the row: a downward triangle at the hole's centre.
            const double x = span.center().x();
            const double y = span.top() - 1;
            QPainterPath marker;
            marker.moveTo(x - 5, y - 7);
            marker.lineTo(x + 5, y - 7);
            marker.lineTo(x, y);
            marker.closeSubpath();
            p.fillPath(marker, OutcomePalette::hole());
        }
    }
}

void FeasibilityStrip::paintPlot(QPainter &p, const StripGeometry &g) const
{
    const QRectF plot = g.plotArea();
    double limit = m_sweep->overheadLimit();
    double highest = 1.0;
    for (int row = 0; row < g.rows; ++row)
        for (int column = 0; column < g.columns; ++column)
            if (const auto &r = m_sweep->result(static_cast<std::size_t>(row), static_cast<std::size_t>(column));
                r && r->outcome == Outcome::Pass && m_sweep->baseline().compute > 0)
                highest = std::max(highest, static_cast<double>(r->clock) / static_cast<double>(m_sweep->baseline().compute));
    if (!std::isfinite(limit) || limit > 4)
        limit = std::max(1.1, highest * 1.05); // a huge limit would flatten every curve
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(QColor(0xE0, 0xE0, 0xE0), 1));
    p.setBrush(Qt::NoBrush);
    p.drawRect(plot);
    // Gridlines and labels at 1.0x, the middle and the limit.
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.85);
    p.setFont(small);
    for (double v : {1.0, (1.0 + limit) / 2, limit}) {
        const double y = g.overheadY(v, limit);
        p.setPen(QPen(QColor(0xE8, 0xE8, 0xE8), 1, v == limit ? Qt::DashLine : Qt::SolidLine));
        p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRectF(g.bounds.left(), y - 8, g.labelWidth - 8, 16), Qt::AlignRight | Qt::AlignVCenter,
                   QString::number(v, 'f', 2) + QStringLiteral("×"));
    }
    p.save();
    p.translate(g.bounds.left() + 12, plot.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-plot.height() / 2, -10, plot.height(), 20), Qt::AlignCenter, tr("overhead"));
    p.restore();
    // One curve per policy through its passing runs; a gap where runs fail.
    for (int row = 0; row < g.rows; ++row) {
        p.setPen(QPen(OutcomePalette::policy(row), 1.6));
        QPainterPath path;
        bool open = false;
        for (int column = 0; column < g.columns; ++column) {
            const auto &r = m_sweep->result(static_cast<std::size_t>(row), static_cast<std::size_t>(column));
            if (!r || r->outcome != Outcome::Pass || m_sweep->baseline().compute <= 0) {
                open = false;
                continue;
            }
            const QPointF point(g.columnCenter(column),
                                g.overheadY(static_cast<double>(r->clock) / static_cast<double>(m_sweep->baseline().compute), limit));
            if (open)
                path.lineTo(point);
            else
                path.moveTo(point);
            open = true;
            if (g.columns <= 120)
                p.drawEllipse(point, 1.8, 1.8);
        }
        p.drawPath(path);
    }
}

void FeasibilityStrip::paintAxes(QPainter &p, const StripGeometry &g) const
{
    const auto &grid = m_sweep->grid();
    const double first = grid.front().ratio;
    const double last = grid.back().ratio;
    const QRectF cells = g.cellArea();
    const QRectF plot = g.plotArea();
    auto xOf = [&](double ratio) {
        if (last <= first)
            return g.columnCenter(0);
        return g.columnCenter(0) + (ratio - first) / (last - first) * (g.columnCenter(g.columns - 1) - g.columnCenter(0));
    };
    const double step = tickStep(last - first, std::max(2, static_cast<int>(cells.width() / 90)));
    const int decimals = std::max(0, static_cast<int>(-std::floor(std::log10(step) + 1e-9)));
    p.setRenderHint(QPainter::Antialiasing, false);
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.85);
    p.setFont(small);
    const QColor text = palette().color(QPalette::Text);
    const double memory = static_cast<double>(m_sweep->baseline().memory);
    for (double tick = std::ceil(first / step - 1e-9) * step; tick <= last + step * 1e-6; tick += step) {
        const double x = xOf(tick);
        p.setPen(QPen(text, 1));
        p.drawLine(QPointF(x, cells.bottom()), QPointF(x, cells.bottom() + 4));
        p.drawText(QRectF(x - 40, cells.bottom() + 4, 80, 16), Qt::AlignHCenter | Qt::AlignTop,
                   QString::number(tick, 'f', decimals));
        p.drawLine(QPointF(x, plot.top() - 4), QPointF(x, plot.top()));
        p.drawText(QRectF(x - 50, plot.top() - 22, 100, 16), Qt::AlignHCenter | Qt::AlignBottom, byteSize(tick * memory));
    }
    p.drawText(QRectF(cells.left(), cells.bottom() + 22, cells.width(), 16), Qt::AlignHCenter | Qt::AlignTop,
               tr("budget: fraction of the baseline memory (%1) below, bytes above").arg(byteSize(memory)));
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
        p.setPen(QPen(OutcomePalette::selection(), 1, Qt::DashLine));
        p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        QRectF outline = cell;
        if (outline.width() < 5)
            outline.adjust(-(5 - outline.width()) / 2, 0, (5 - outline.width()) / 2, 0);
        p.setPen(QPen(OutcomePalette::selection(), hasFocus() ? 2.5 : 1.5));
        p.setBrush(Qt::NoBrush);
        p.drawRect(outline.adjusted(-1, -1, 1, 1));
    }
}

void FeasibilityStrip::paintLegend(QPainter &p, const StripGeometry &g) const
{
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.85);
    p.setFont(small);
    const QFontMetricsF metrics(small);
    const Outcome outcomes[] = {Outcome::Pass, Outcome::OutOfMemory, Outcome::Thrash, Outcome::Timeout, Outcome::Cancelled};
    double x = g.cellArea().right();
    const double y = g.cellArea().bottom() + 44;
    p.setRenderHint(QPainter::Antialiasing, false);
    for (int i = 4; i >= -1; --i) {
        const QString label = i >= 0 ? OutcomePalette::outcomeLabel(outcomes[i]) : tr("hole");
        const double width = metrics.horizontalAdvance(label);
        x -= width;
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRectF(x, y, width + 2, 14), Qt::AlignLeft | Qt::AlignVCenter, label);
        x -= 14;
        const QRectF swatch(x, y + 2, 10, 10);
        if (i >= 0) {
            p.fillRect(swatch, OutcomePalette::outcome(outcomes[i]));
        } else {
            p.setPen(QPen(OutcomePalette::hole(), 2));
            p.drawRect(swatch);
        }
        x -= 14;
    }
    for (int row = g.rows - 1; row >= 0 && g.rows > 1; --row) { // right to left, so it reads in row order
        const QString label = m_sweep->policyName(static_cast<std::size_t>(row));
        const double width = metrics.horizontalAdvance(label);
        x -= width;
        p.setPen(palette().color(QPalette::Text));
        p.drawText(QRectF(x, y, width + 2, 14), Qt::AlignLeft | Qt::AlignVCenter, label);
        x -= 18;
        p.setPen(QPen(OutcomePalette::policy(row), 2));
        p.drawLine(QPointF(x, y + 7), QPointF(x + 14, y + 7));
        x -= 10;
    }
}

} // namespace rematlens
