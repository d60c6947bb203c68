#include "views/strip/strip_painter.h"

#include "views/tables/hole_list_model.h"
#include "views/strip/hole_mark.h"
#include "views/tables/sweep_result_model.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace rematlens {

namespace {

// A "nice" tick step (1, 2 or 5 times a power of ten) giving about `wanted` ticks over span.
double tickStep(double span, int wanted)
{
    if (!(span > 0))
        return 1;
    const double raw = span / std::max(1, wanted);
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (double factor : {1.0, 2.0, 5.0, 10.0})
        if (raw <= factor * magnitude)
            return factor * magnitude;
    return 10 * magnitude;
}

int decimalsFor(double step)
{
    return std::clamp(static_cast<int>(-std::floor(std::log10(step) + 1e-9)), 0, 6);
}

std::vector<double> ticksBetween(double first, double last, double step)
{
    std::vector<double> ticks;
    for (double k = std::ceil(first / step - 1e-9); k * step <= last + step * 1e-6 && ticks.size() < 1000; ++k)
        ticks.push_back(k * step);
    return ticks;
}

} // namespace

StripPainter::StripPainter(const SweepResultModel &sweep, const HoleListModel *holes, const FigureStyle &style)
    : m_sweep(sweep), m_holes(holes), m_style(style), m_font(style.font()), m_metrics(m_font)
{
}

QString StripPainter::byteSize(double bytes)
{
    if (bytes >= 1e9)
        return QString::number(bytes / 1e9, 'f', bytes >= 1e11 ? 0 : (bytes >= 1e10 ? 1 : 2)) + QStringLiteral(" GB");
    if (bytes >= 1e6)
        return QString::number(bytes / 1e6, 'f', bytes >= 1e8 ? 0 : 1) + QStringLiteral(" MB");
    return QString::number(bytes / 1e3, 'f', 1) + QStringLiteral(" kB");
}

QString StripPainter::xAxisTitle(bool bytesAbove, double width) const
{
    const QString baseline = byteSize(static_cast<double>(m_sweep.baseline().memory));
    const QString candidates[] = {
        bytesAbove ? QStringLiteral("memory budget (fraction of the baseline peak memory, %1; bytes on top)").arg(baseline)
                   : QStringLiteral("memory budget (fraction of the baseline peak memory, %1)").arg(baseline),
        QStringLiteral("budget (fraction of baseline peak, %1)").arg(baseline),
        QStringLiteral("budget / baseline peak")};
    for (const QString &title : candidates)
        if (m_metrics.horizontalAdvance(title) <= width)
            return title;
    return candidates[2];
}

double StripPainter::overheadOf(std::size_t policy, std::size_t column) const
{
    const std::optional<RunResult> &r = m_sweep.result(policy, column);
    if (!r || r->outcome != Outcome::Pass || m_sweep.baseline().compute <= 0)
        return 0;
    return static_cast<double>(r->clock) / static_cast<double>(m_sweep.baseline().compute);
}

double StripPainter::overheadTop() const
{
    double highest = 1.0;
    for (std::size_t row = 0; row < m_sweep.policyCount(); ++row)
        for (std::size_t column = 0; column < m_sweep.gridSize(); ++column)
            highest = std::max(highest, overheadOf(row, column));
    const double limit = m_sweep.overheadLimit();
    if (std::isfinite(limit) && limit <= 4 && limit > 1)
        return std::max(limit, highest);
    return std::max(1.1, highest * 1.05); // a huge limit would flatten every curve
}

double StripPainter::leftLabelWidth() const
{
    double widest = m_metrics.horizontalAdvance(QStringLiteral("0.00×"));
    for (std::size_t row = 0; row < m_sweep.policyCount(); ++row)
        widest = std::max(widest, m_metrics.horizontalAdvance(m_sweep.policyName(row)));
    return lineHeight() * 1.5 + widest + lineHeight() * 0.4;
}

double StripPainter::minimumHeight(const Parts &parts) const
{
    const StripGeometry g = layout(QRectF(0, 0, 100, 0), parts);
    const double rows = static_cast<double>(std::max<std::size_t>(1, m_sweep.policyCount()));
    return g.topAxisHeight + g.bottomAxisHeight + g.plotGap + 3 * lineHeight() + rows * 1.4 * lineHeight();
}

StripGeometry StripPainter::layout(const QRectF &bounds, const Parts &parts) const
{
    const double lh = lineHeight();
    const double tick = 0.35 * lh;
    StripGeometry g;
    g.bounds = bounds;
    g.columns = static_cast<int>(m_sweep.gridSize());
    g.rows = static_cast<int>(m_sweep.policyCount());
    g.labelWidth = parts.leftLabels ? leftLabelWidth() : 0.5 * lh;
    const double titleHeight = parts.title.isEmpty() ? 0 : 1.25 * lh;
    g.topAxisHeight = titleHeight + (parts.bytesAxis ? lh + tick + 0.15 * lh : 0.6 * lh);
    g.bottomAxisHeight = tick + lh + (parts.xAxisTitle ? 1.2 * lh : 0) + 0.1 * lh;
    const double widestTick = m_metrics.horizontalAdvance(parts.bytesAxis ? QStringLiteral("8.88 GB") : QStringLiteral("0.000"));
    g.rightMargin = 0.5 * widestTick + 0.2 * lh;
    g.plotGap = markerSize() + 0.25 * lh;
    g.rowGap = markerSize() + 0.2 * lh;
    const double available = bounds.height() - g.topAxisHeight - g.bottomAxisHeight - g.plotGap;
    const double rows = std::max(1, g.rows);
    const double wantedRow = std::clamp(available * 0.42 / rows, 1.5 * lh, 4 * lh);
    g.cellAreaHeight = std::min(rows * wantedRow, std::max(rows * 1.1 * lh, available - 2.5 * lh));
    return g;
}

double StripPainter::rowHeight(const StripGeometry &g) const
{
    return g.rows > 0 ? g.cellArea().height() / g.rows : 0;
}

void StripPainter::paint(QPainter &p, const QRectF &bounds, const Parts &parts) const
{
    const StripGeometry g = layout(bounds, parts);
    p.save();
    p.setFont(m_font);
    paintTitle(p, g, parts);
    if (g.columns == 0 || g.rows == 0) {
        p.setPen(m_style.ink());
        p.drawText(bounds, Qt::AlignCenter, QStringLiteral("no runs"));
        p.restore();
        return;
    }
    paintCells(p, g, parts);
    paintHoles(p, g);
    paintPlot(p, g, parts);
    paintRatioAxis(p, g, parts);
    p.restore();
}

void StripPainter::paintTitle(QPainter &p, const StripGeometry &g, const Parts &parts) const
{
    if (parts.title.isEmpty())
        return;
    p.setFont(m_style.boldFont());
    p.setPen(m_style.ink());
    const QRectF cells = g.cellArea();
    p.drawText(QRectF(cells.left(), g.bounds.top(), cells.width(), lineHeight()), Qt::AlignHCenter | Qt::AlignTop,
               parts.title);
    p.setFont(m_font);
}

// Runs of equal outcome are one rectangle each: no seams between cells in vector viewers.
void StripPainter::paintCells(QPainter &p, const StripGeometry &g, const Parts &parts) const
{
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setPen(Qt::NoPen);
    for (int row = 0; row < g.rows; ++row) {
        const auto policy = static_cast<std::size_t>(row);
        int start = 0;
        for (int column = 1; column <= g.columns; ++column) {
            const auto outcomeAt = [&](int c) {
                const std::optional<RunResult> &r = m_sweep.result(policy, static_cast<std::size_t>(c));
                return r ? r->outcome : Outcome::Cancelled;
            };
            if (column < g.columns && outcomeAt(column) == outcomeAt(start))
                continue;
            const QRectF first = g.cell(row, start);
            const QRectF last = g.cell(row, column - 1);
            p.fillRect(QRectF(first.topLeft(), last.bottomRight()), m_style.outcome(outcomeAt(start)));
            start = column;
        }
        if (parts.leftLabels) {
            p.setPen(m_style.ink());
            const QRectF label(g.bounds.left(), g.rowRect(row).top(), g.labelWidth - 0.4 * lineHeight(),
                               g.rowRect(row).height());
            p.drawText(label, Qt::AlignRight | Qt::AlignVCenter, m_sweep.policyName(policy));
            p.setPen(Qt::NoPen);
        }
    }
}

// A hole: its failing cells hatched and outlined, and a marker pointing down at it, so it
// stands out from the failures below the lowest passing budget.
void StripPainter::paintHoles(QPainter &p, const StripGeometry &g) const
{
    if (!m_holes)
        return;
    p.setRenderHint(QPainter::Antialiasing, true);
    const std::vector<HoleReport> &reports = m_holes->reports();
    const double minimumWidth = 0.5 * lineHeight();
    for (std::size_t row = 0; row < reports.size() && static_cast<int>(row) < g.rows; ++row) {
        for (const Hole &hole : reports[row].holes) {
            if (static_cast<int>(hole.lastFail) >= g.columns)
                continue;
            const QRectF first = g.cell(static_cast<int>(row), static_cast<int>(hole.firstFail));
            const QRectF last = g.cell(static_cast<int>(row), static_cast<int>(hole.lastFail));
            QRectF span(first.topLeft(), last.bottomRight());
            if (span.width() < minimumWidth)
                span.adjust(-(minimumWidth - span.width()) / 2, 0, (minimumWidth - span.width()) / 2, 0);
            const std::optional<RunResult> &failed = m_sweep.result(row, hole.firstFail);
            HoleMark::paint(p, span, m_style.outcome(failed ? failed->outcome : Outcome::OutOfMemory), m_style);
            const double size = markerSize();
            const double x = span.center().x();
            const double y = span.top() - 0.1 * lineHeight();
            QPainterPath marker;
            marker.moveTo(x - 0.6 * size, y - 0.9 * size);
            marker.lineTo(x + 0.6 * size, y - 0.9 * size);
            marker.lineTo(x, y);
            marker.closeSubpath();
            p.fillPath(marker, m_style.hole());
        }
    }
}

void StripPainter::paintPlot(QPainter &p, const StripGeometry &g, const Parts &parts) const
{
    const QRectF plot = g.plotArea();
    if (plot.height() < lineHeight())
        return; // too little room for a readable plot: the cells alone
    const double top = parts.overheadTop > 1 ? parts.overheadTop : overheadTop();
    p.setRenderHint(QPainter::Antialiasing, true);
    const double step = tickStep(top - 1.0, plot.height() > 5 * lineHeight() ? 4 : 2);
    const int decimals = std::max(1, decimalsFor(step));
    for (double v : ticksBetween(1.0, top, step)) {
        const double y = g.overheadY(v, top);
        p.setPen(QPen(m_style.grid(), m_style.axisWidth));
        p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        if (!parts.leftLabels)
            continue;
        p.setPen(m_style.ink());
        p.drawText(QRectF(g.bounds.left(), y - lineHeight() / 2, g.labelWidth - 0.4 * lineHeight(), lineHeight()),
                   Qt::AlignRight | Qt::AlignVCenter, QString::number(v, 'f', decimals) + QStringLiteral("×"));
    }
    p.setPen(QPen(m_style.ink(), m_style.axisWidth));
    p.drawLine(plot.bottomLeft(), plot.topLeft());
    if (parts.leftLabels) {
        p.save();
        p.translate(g.bounds.left() + 0.55 * lineHeight(), plot.center().y());
        p.rotate(-90);
        p.setPen(m_style.ink());
        p.drawText(QRectF(-plot.height(), -lineHeight() / 2, 2 * plot.height(), lineHeight()), Qt::AlignCenter,
                   QStringLiteral("overhead (×)"));
        p.restore();
    }
    paintCurves(p, g, parts, top);
}

// One curve per policy through its passing runs; a gap where runs fail.
void StripPainter::paintCurves(QPainter &p, const StripGeometry &g, const Parts &parts, double top) const
{
    const double dot = 1.1 * m_style.lineWidth;
    for (int row = 0; row < g.rows; ++row) {
        const int named = static_cast<int>(parts.policyColours.indexOf(m_sweep.policyName(static_cast<std::size_t>(row))));
        const int colour = named >= 0 ? named : row;
        QPen pen(m_style.policy(colour), m_style.lineWidth, m_style.policyLine(colour), Qt::RoundCap, Qt::RoundJoin);
        QPainterPath path;
        bool open = false;
        std::vector<QPointF> points;
        for (int column = 0; column < g.columns; ++column) {
            const double overhead = overheadOf(static_cast<std::size_t>(row), static_cast<std::size_t>(column));
            if (overhead <= 0) {
                open = false;
                continue;
            }
            const QPointF point(g.columnCenter(column), g.overheadY(overhead, top));
            if (open)
                path.lineTo(point);
            else
                path.moveTo(point);
            open = true;
            points.push_back(point);
        }
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
        if (g.cellArea().width() / std::max(1, g.columns) >= 4 * dot) { // dots only where they do not merge
            p.setPen(Qt::NoPen);
            p.setBrush(m_style.policy(colour));
            for (const QPointF &point : points)
                p.drawEllipse(point, dot, dot);
        }
    }
    p.setBrush(Qt::NoBrush);
}

// The finest "nice" step whose labels (ratios, and bytes when memory > 0) stay apart over
// `span` units.
double StripPainter::ratioTickStep(double first, double last, double span, double memory) const
{
    if (!(last > first))
        return 1.0;
    for (int wanted = 12; wanted > 1; --wanted) {
        const double step = tickStep(last - first, wanted);
        const int decimals = std::max(1, decimalsFor(step));
        double widest = 0;
        for (double value : ticksBetween(first, last, step)) {
            widest = std::max(widest, m_metrics.horizontalAdvance(QString::number(value, 'f', decimals)));
            if (memory > 0)
                widest = std::max(widest, m_metrics.horizontalAdvance(byteSize(value * memory)));
        }
        const double gap = memory > 0 ? 1.0 : 0.6; // byte labels are long: a wider gap keeps them apart
        if (step / (last - first) * span >= widest + gap * lineHeight())
            return step;
    }
    return tickStep(last - first, 1);
}

void StripPainter::paintRatioAxis(QPainter &p, const StripGeometry &g, const Parts &parts) const
{
    const auto &grid = m_sweep.grid();
    const double first = grid.front().ratio;
    const double last = grid.back().ratio;
    const QRectF cells = g.cellArea();
    const QRectF plot = g.plotArea();
    const auto xOf = [&](double ratio) {
        if (last <= first)
            return g.columnCenter(0);
        return g.columnCenter(0) + (ratio - first) / (last - first) * (g.columnCenter(g.columns - 1) - g.columnCenter(0));
    };
    const double memory = static_cast<double>(m_sweep.baseline().memory);
    const bool bytes = parts.bytesAxis && plot.height() >= lineHeight() && memory > 0;
    const double span = xOf(last) - xOf(first);
    const double step = ratioTickStep(first, last, span, bytes ? memory : 0);
    const int decimals = std::max(1, decimalsFor(step));
    const double label = 3 * lineHeight(); // text rectangles are wider than any label; text is centred
    const double tick = 0.35 * lineHeight();
    p.setRenderHint(QPainter::Antialiasing, false);
    const std::vector<double> ticks = last > first ? ticksBetween(first, last, step) : std::vector<double>{first};
    for (double value : ticks) {
        const double x = xOf(value);
        p.setPen(QPen(m_style.ink(), m_style.axisWidth));
        p.drawLine(QPointF(x, cells.bottom()), QPointF(x, cells.bottom() + tick));
        p.drawText(QRectF(x - 3 * label, cells.bottom() + tick, 6 * label, lineHeight()), Qt::AlignHCenter | Qt::AlignTop,
                   QString::number(value, 'f', decimals));
        if (bytes) {
            p.drawLine(QPointF(x, plot.top() - tick), QPointF(x, plot.top()));
            p.drawText(QRectF(x - 3 * label, plot.top() - tick - lineHeight(), 6 * label, lineHeight()),
                       Qt::AlignHCenter | Qt::AlignBottom, byteSize(value * memory));
        }
    }
    if (parts.xAxisTitle)
        p.drawText(QRectF(cells.left(), cells.bottom() + tick + 1.15 * lineHeight(), cells.width(), lineHeight()),
                   Qt::AlignHCenter | Qt::AlignTop, xAxisTitle(parts.bytesAxis, cells.width()));
}

} // namespace rematlens
