#include "views/strip/strip_painter.h"

#include "core/analysis/min_max_decimator.h"

#include "views/tables/schedule_rows_model.h"

#include "views/common/byte_units.h"

#include "views/strip/hole_mark.h"
#include "views/strip/mapped_row.h"
#include "views/strip/unmapped_mark.h"
#include "views/tables/exact_map_model.h"
#include "views/tables/hole_list_model.h"
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

// Up to 12 decimals: zoomed down to single bytes, neighbouring ratios differ by about 1e-10.
int decimalsFor(double step)
{
    return std::clamp(static_cast<int>(-std::floor(std::log10(step) + 1e-9)), 0, 12);
}

// Steps of a byte axis zoomed in too far for "3.52 GiB" labels: powers of two in binary
// units, 1, 2 or 5 times a power of ten in decimal ones, from one byte up.
std::vector<double> byteTickSteps(double span)
{
    std::vector<double> steps;
    if (ByteUnits::system() == UnitSystem::Binary)
        for (double step = 1; step <= 2 * span; step *= 2)
            steps.push_back(step);
    else
        for (double magnitude = 1; magnitude <= 2 * span; magnitude *= 10)
            for (double factor : {1.0, 2.0, 5.0})
                steps.push_back(factor * magnitude);
    if (steps.empty())
        steps.push_back(1);
    return steps;
}

std::vector<double> ticksBetween(double first, double last, double step)
{
    std::vector<double> ticks;
    for (double k = std::ceil(first / step - 1e-9); k * step <= last + step * 1e-6 && ticks.size() < 1000; ++k)
        ticks.push_back(k * step);
    return ticks;
}

bool distinctByteLabels(const std::vector<double> &ratios, double memory)
{
    for (std::size_t i = 1; i < ratios.size(); ++i)
        if (ByteUnits::format(ratios[i - 1] * memory) == ByteUnits::format(ratios[i] * memory))
            return false;
    return true;
}

// The polyline's part between x = left and x = right: zoomed in, points lie billions of
// pixels away, more than a raster engine draws correctly.
void addClipped(QPainterPath &path, const std::vector<QPointF> &line, double left, double right)
{
    bool open = false;
    for (std::size_t i = 1; i < line.size(); ++i) {
        QPointF a = line[i - 1];
        QPointF b = line[i];
        if (std::max(a.x(), b.x()) < left || std::min(a.x(), b.x()) > right || b.x() < a.x()) {
            open = false;
            continue;
        }
        const auto at = [&](double x) {
            const double t = b.x() > a.x() ? (x - a.x()) / (b.x() - a.x()) : 0;
            return QPointF(x, a.y() + t * (b.y() - a.y()));
        };
        const bool cutStart = a.x() < left;
        if (cutStart)
            a = at(left);
        if (b.x() > right)
            b = at(right);
        if (!open || cutStart)
            path.moveTo(a);
        path.lineTo(b);
        open = b.x() < right;
    }
}

// A mapped row's curve has two points per interval (InceptionV4's: 250,000), far more than its
// pixels: each pixel column keeps its first, lowest, highest and last point, so every step a
// pixel can show stays and stroking costs what the width does, not the map.
std::vector<QPointF> thinned(const std::vector<QPointF> &line, double left, double right)
{
    const auto columns = static_cast<std::size_t>(std::max(1.0, right - left));
    if (line.size() <= 4 * columns)
        return line;
    std::vector<double> xs;
    std::vector<double> ys;
    xs.reserve(line.size());
    ys.reserve(line.size());
    for (const QPointF &point : line) {
        xs.push_back(point.x());
        ys.push_back(point.y());
    }
    std::vector<QPointF> kept;
    for (const PlotPoint &point : MinMaxDecimator(left, right, columns).decimate(xs, ys))
        kept.emplace_back(point.x, point.y);
    return kept;
}

} // namespace

StripPainter::StripPainter(const SweepResultModel &sweep, const HoleListModel *holes, const FigureStyle &style,
                           const ExactMapModel *maps, const ScheduleRowsModel *schedules)
    : m_sweep(sweep), m_holes(holes), m_maps(maps), m_schedules(schedules), m_style(style), m_font(style.font()),
      m_metrics(m_font)
{
}

const MappedRow *StripPainter::mappedRow(int row) const
{
    if (!m_maps || row < 0 || static_cast<std::size_t>(row) >= m_sweep.policyCount() || m_sweep.gridSize() == 0)
        return nullptr;
    return m_maps->row(m_sweep.request(static_cast<std::size_t>(row), 0));
}

QString StripPainter::xAxisTitle(bool bytesAbove, double width) const
{
    const QString baseline = ByteUnits::format(static_cast<double>(m_sweep.baseline().memory));
    const QString candidates[] = {
        bytesAbove
            ? QStringLiteral("memory budget (fraction of the baseline peak memory, %1; bytes on top)").arg(baseline)
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
    if (m_schedules)
        for (ScheduleRowsModel::Row row : m_schedules->rows())
            widest = std::max(widest, m_metrics.horizontalAdvance(ScheduleRowsModel::rowName(row)));
    return lineHeight() * 1.5 + widest + lineHeight() * 0.4;
}

double StripPainter::minimumHeight(const Parts &parts) const
{
    const StripGeometry g = layout(QRectF(0, 0, 100, 0), parts);
    const double rows = static_cast<double>(std::max(1, g.totalRows()));
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
    if (m_schedules && m_schedules->columnCount() == m_sweep.gridSize())
        g.extraRows = static_cast<int>(m_schedules->rowCount());
    g.viewFrom = parts.viewFrom;
    g.viewTo = parts.viewTo;
    // Column c is centred on its grid budget; the grid is evenly spaced.
    const auto &grid = m_sweep.grid();
    const double memory = static_cast<double>(m_sweep.baseline().memory);
    if (!grid.empty() && memory > 0) {
        g.bytesPerColumn = grid.size() > 1
                               ? (grid.back().ratio - grid.front().ratio) * memory / static_cast<double>(grid.size() - 1)
                               : 0.01 * memory;
        g.budgetAtColumnZero = grid.front().ratio * memory - 0.5 * g.bytesPerColumn;
    }
    // Row names take at most a quarter of a narrow strip (longer ones are elided in the middle,
    // keeping a seed's or a model's suffix); the overhead axis's labels always fit.
    const double narrowest = m_metrics.horizontalAdvance(QStringLiteral("0.00×")) + 1.9 * lh;
    g.labelWidth = parts.leftLabels ? std::min(leftLabelWidth(), std::max(narrowest, 0.25 * bounds.width())) : 0.5 * lh;
    const double titleHeight = parts.title.isEmpty() ? 0 : 1.25 * lh;
    g.topAxisHeight = titleHeight + (parts.bytesAxis ? lh + tick + 0.15 * lh : 0.6 * lh);
    g.bottomAxisHeight = tick + lh + (parts.xAxisTitle ? 1.2 * lh : 0) + 0.1 * lh;
    const double widestTick =
        m_metrics.horizontalAdvance(parts.bytesAxis ? QStringLiteral("8.88 GB") : QStringLiteral("0.000"));
    g.rightMargin = 0.5 * widestTick + 0.2 * lh;
    g.plotGap = markerSize() + 0.25 * lh;
    g.rowGap = markerSize() + 0.2 * lh;
    const double available = bounds.height() - g.topAxisHeight - g.bottomAxisHeight - g.plotGap;
    const double rows = std::max(1, g.totalRows());
    const double wantedRow = std::clamp(available * 0.42 / rows, 1.5 * lh, 4 * lh);
    g.cellAreaHeight = std::min(rows * wantedRow, std::max(rows * 1.1 * lh, available - 2.5 * lh));
    return g;
}

// Zoomed in, cells, holes and curves run past the plot's sides: they are cut at its edges, by
// their geometry (shownPart, the curves' ends), since SVG files Qt writes keep no clip, and by a
// clip for the rest.
QRectF StripPainter::shownPart(const StripGeometry &g, const QRectF &r)
{
    if (!(g.viewTo > g.viewFrom))
        return g.visiblePart(r);
    const QRectF cells = g.cellArea();
    const double left = std::max(r.left(), cells.left());
    const double right = std::min(r.right(), cells.right());
    return QRectF(left, r.top(), std::max(0.0, right - left), r.height());
}

void StripPainter::clipToColumnsShown(QPainter &p, const StripGeometry &g)
{
    if (!(g.viewTo > g.viewFrom))
        return; // every column shown: nothing to cut (and figures keep free of clip paths)
    const QRectF cells = g.cellArea();
    p.setClipRect(QRectF(cells.left(), g.bounds.top(), cells.width(), g.bounds.height()), Qt::IntersectClip);
}

double StripPainter::rowHeight(const StripGeometry &g) const
{
    return g.totalRows() > 0 ? g.cellArea().height() / g.totalRows() : 0;
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
    paintScheduleRows(p, g, parts);
    p.save();
    clipToColumnsShown(p, g);
    paintHoles(p, g);
    p.restore();
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
        p.save();
        clipToColumnsShown(p, g);
        for (int column = 1; column <= g.columns; ++column) {
            const auto outcomeAt = [&](int c) {
                const std::optional<RunResult> &r = m_sweep.result(policy, static_cast<std::size_t>(c));
                return r ? r->outcome : Outcome::Cancelled;
            };
            if (column < g.columns && outcomeAt(column) == outcomeAt(start))
                continue;
            const QRectF first = g.cell(row, start);
            const QRectF last = g.cell(row, column - 1);
            p.fillRect(shownPart(g, QRectF(first.topLeft(), last.bottomRight())), m_style.outcome(outcomeAt(start)));
            start = column;
        }
        if (const MappedRow *mapped = mappedRow(row))
            paintMappedRow(p, g, row, *mapped);
        p.restore();
        if (parts.leftLabels)
            paintRowLabel(p, g, row, m_sweep.policyName(policy));
    }
}

void StripPainter::paintRowLabel(QPainter &p, const StripGeometry &g, int row, const QString &label) const
{
    p.setPen(m_style.ink());
    const QRectF box(g.bounds.left(), g.rowRect(row).top(), g.labelWidth - 0.4 * lineHeight(), g.rowRect(row).height());
    p.drawText(box, Qt::AlignRight | Qt::AlignVCenter, m_metrics.elidedText(label, Qt::ElideMiddle, int(box.width())));
    p.setPen(Qt::NoPen);
}

// The static schedules' rows under the policies: runs of equal state are one rectangle each.
void StripPainter::paintScheduleRows(QPainter &p, const StripGeometry &g, const Parts &parts) const
{
    if (g.extraRows == 0)
        return;
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setPen(Qt::NoPen);
    for (int extra = 0; extra < g.extraRows; ++extra) {
        const int row = g.rows + extra;
        const auto stateAt = [&](int c) { return m_schedules->state(std::size_t(extra), std::size_t(c)); };
        p.save();
        clipToColumnsShown(p, g);
        int start = 0;
        for (int column = 1; column <= g.columns; ++column) {
            if (column < g.columns && stateAt(column) == stateAt(start))
                continue;
            const QRectF span(g.cell(row, start).topLeft(), g.cell(row, column - 1).bottomRight());
            p.fillRect(shownPart(g, span), ScheduleRowsModel::stateColour(stateAt(start)));
            start = column;
        }
        p.restore();
        if (parts.leftLabels)
            paintRowLabel(p, g, row, ScheduleRowsModel::rowName(m_schedules->rows()[std::size_t(extra)]));
    }
}

// A hole: its failing cells hatched and outlined, and a marker pointing down at it, so it
// stands out from the failures below the lowest passing budget.
void StripPainter::paintHoles(QPainter &p, const StripGeometry &g) const
{
    p.setRenderHint(QPainter::Antialiasing, true);
    const double minimumWidth = 0.5 * lineHeight();
    for (int row = 0; row < g.rows; ++row) {
        const auto policy = static_cast<std::size_t>(row);
        const MappedRow *mapped = mappedRow(row);
        if (mapped)
            paintExactHoles(p, g, row, *mapped);
        if (!m_holes || policy >= m_holes->reports().size())
            continue;
        for (const Hole &hole : m_holes->reports()[policy].holes) {
            if (static_cast<int>(hole.lastFail) >= g.columns)
                continue;
            if (mapped && mapped->covers(m_sweep.request(policy, hole.firstFail).config.budget) &&
                mapped->covers(m_sweep.request(policy, hole.lastFail).config.budget))
                continue; // the map's own holes, at their exact bounds, stand for it
            const QRectF first = g.cell(row, static_cast<int>(hole.firstFail));
            const QRectF last = g.cell(row, static_cast<int>(hole.lastFail));
            QRectF span(first.topLeft(), last.bottomRight());
            if (span.width() < minimumWidth)
                span.adjust(-(minimumWidth - span.width()) / 2, 0, (minimumWidth - span.width()) / 2, 0);
            span = shownPart(g, span);
            const std::optional<RunResult> &failed = m_sweep.result(policy, hole.firstFail);
            HoleMark::paint(p, span, m_style.outcome(failed ? failed->outcome : Outcome::OutOfMemory), m_style);
            paintHoleMarker(p, span);
        }
    }
}

// A triangle above the hole, pointing down at it.
void StripPainter::paintHoleMarker(QPainter &p, const QRectF &span) const
{
    if (span.width() <= 0)
        return;
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

// A mapped row: its stretches of one result at their byte bounds, unmapped budgets
// cross-hatched, and the edges between intervals once they are wide enough to tell apart.
void StripPainter::paintMappedRow(QPainter &p, const StripGeometry &g, int row, const MappedRow &mapped) const
{
    const QRectF cells = g.cell(row, 0);
    const auto span = [&](double from, double end) {
        return shownPart(g, 
            QRectF(QPointF(g.xOfBudget(from), cells.top()), QPointF(g.xOfBudget(end), cells.bottom())));
    };
    for (const MapStretch &stretch : mapped.summary.stretches) {
        const QRectF r = span(static_cast<double>(stretch.first), static_cast<double>(stretch.last) + 1);
        if (r.width() <= 0)
            continue;
        if (stretch.unmapped)
            UnmappedMark::paint(p, r, m_style);
        else
            p.fillRect(r, m_style.outcome(stretch.outcome));
    }
    const ByteRange range = mapped.summary.range;
    paintIntervalEdges(p, g, span(static_cast<double>(range.from), static_cast<double>(range.end)), mapped);
}

void StripPainter::paintIntervalEdges(QPainter &p, const StripGeometry &g, const QRectF &rowCells,
                                      const MappedRow &mapped) const
{
    if (rowCells.width() <= 0)
        return;
    const double from = g.budgetAt(rowCells.left());
    const double to = g.budgetAt(rowCells.right());
    const auto byLo = [](const RunResult &r, double budget) { return static_cast<double>(r.interval.lo) < budget; };
    const auto first = std::lower_bound(mapped.intervals.begin(), mapped.intervals.end(), from, byLo);
    const auto end = std::lower_bound(first, mapped.intervals.end(), to, byLo);
    const auto visible = end - first;
    if (visible == 0 || rowCells.width() / static_cast<double>(visible) < 6)
        return; // edges closer than a few pixels would only grey the row
    p.save();
    p.setRenderHint(QPainter::Antialiasing, false);
    QColor edge = m_style.ink();
    edge.setAlpha(110);
    p.setPen(QPen(edge, m_style.axisWidth));
    for (auto it = first; it != end; ++it) {
        const double x = g.xOfBudget(static_cast<double>(it->interval.lo));
        if (x > rowCells.left() && x < rowCells.right())
            p.drawLine(QPointF(x, rowCells.top()), QPointF(x, rowCells.bottom()));
    }
    p.restore();
}

// A mapped row's holes at their exact bounds. Holes closer together than a marker's width (the
// LSTM's 200 holes within a few pixels of a full-range strip) are drawn as one group: an outline
// around them all with the number of holes, over the cells that show which budgets pass and
// fail, instead of hatchings that would merge into one black block.
void StripPainter::paintExactHoles(QPainter &p, const StripGeometry &g, int row, const MappedRow &mapped) const
{
    const QRectF cells = g.cell(row, 0);
    const double minimumWidth = 0.5 * lineHeight();
    const auto spanOf = [&](Bytes first, Bytes last) {
        return QRectF(QPointF(g.xOfBudget(static_cast<double>(first)), cells.top()),
                      QPointF(g.xOfBudget(static_cast<double>(last) + 1), cells.bottom()));
    };
    const auto widened = [&](QRectF span) {
        if (span.width() < minimumWidth)
            span.adjust(-(minimumWidth - span.width()) / 2, 0, (minimumWidth - span.width()) / 2, 0);
        return span;
    };
    const std::vector<MapHole> &holes = mapped.summary.holes;
    for (std::size_t first = 0; first < holes.size();) {
        std::size_t end = first + 1;
        QRectF group = widened(spanOf(holes[first].firstFail, holes[first].lastFail));
        for (; end < holes.size(); ++end) {
            const QRectF next = widened(spanOf(holes[end].firstFail, holes[end].lastFail));
            if (next.left() > group.right() + 0.25 * lineHeight())
                break;
            group = group.united(next);
        }
        const QRectF shown = shownPart(g, group);
        if (shown.width() > 0) {
            if (end - first == 1) {
                const RunResult *failed = mapped.intervalAt(holes[first].firstFail);
                HoleMark::paint(p, shown, m_style.outcome(failed ? failed->outcome : Outcome::OutOfMemory), m_style);
            } else {
                HoleMark::paintGroup(p, shown, int(end - first), m_style);
            }
            paintHoleMarker(p, shown);
        }
        first = end;
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
        // The top label stays inside the plot's height, clear of the byte labels above it.
        const double labelTop = std::max(y - lineHeight() / 2, plot.top());
        p.drawText(QRectF(g.bounds.left(), labelTop, g.labelWidth - 0.4 * lineHeight(), lineHeight()),
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
    p.save();
    clipToColumnsShown(p, g);
    paintCurves(p, g, parts, top);
    p.restore();
}

// One curve per policy through its passing runs; a gap where runs fail. A mapped row's curve
// follows its intervals across the mapped budgets: flat over each, as every budget in it
// replays alike.
void StripPainter::paintCurves(QPainter &p, const StripGeometry &g, const Parts &parts, double top) const
{
    const double dot = 1.1 * m_style.lineWidth;
    const QRectF cells = g.cellArea();
    const bool zoomed = g.viewTo > g.viewFrom;
    const double left = cells.left(); // a map wider than the grid stops at the axis ends
    const double right = cells.right();
    for (int row = 0; row < g.rows; ++row) {
        const int named =
            static_cast<int>(parts.policyColours.indexOf(m_sweep.policyName(static_cast<std::size_t>(row))));
        const int colour = named >= 0 ? named : row;
        const MappedRow *mapped = mappedRow(row);
        std::vector<std::vector<QPointF>> lines(1);
        std::vector<QPointF> dots;
        const auto breakLine = [&] {
            if (!lines.back().empty())
                lines.emplace_back();
        };
        const auto addPassing = [&](double x0, double x1, double overhead, bool gridPoint) {
            const double y = g.overheadY(overhead, top);
            lines.back().push_back(QPointF(x0, y));
            if (!gridPoint)
                lines.back().push_back(QPointF(x1, y));
            else if (x0 >= left + (zoomed ? dot : 0) && x0 <= right - (zoomed ? dot : 0))
                dots.push_back(QPointF(x0, y));
        };
        for (int column = 0; column < g.columns; ++column) {
            const RunRequest &request = m_sweep.request(static_cast<std::size_t>(row), static_cast<std::size_t>(column));
            if (mapped && mapped->covers(request.config.budget))
                continue; // drawn from the intervals below
            const double overhead = overheadOf(static_cast<std::size_t>(row), static_cast<std::size_t>(column));
            if (overhead <= 0)
                breakLine();
            else
                addPassing(g.columnCenter(column), 0, overhead, true);
        }
        breakLine();
        if (mapped) {
            const Baseline &baseline = m_sweep.baseline();
            const ByteRange range = mapped->summary.range;
            Bytes previousEnd = range.from;
            for (const RunResult &r : mapped->intervals) {
                const Bytes lo = std::max(r.interval.lo, range.from);
                const Bytes hi = std::min(r.interval.hi.value_or(range.end), range.end);
                if (hi <= lo)
                    continue;
                if (lo != previousEnd || r.outcome != Outcome::Pass || baseline.compute <= 0)
                    breakLine();
                previousEnd = hi;
                if (r.outcome == Outcome::Pass && baseline.compute > 0)
                    addPassing(g.xOfBudget(static_cast<double>(lo)), g.xOfBudget(static_cast<double>(hi)),
                               static_cast<double>(r.clock) / static_cast<double>(baseline.compute), false);
            }
        }
        QPainterPath path;
        for (const std::vector<QPointF> &line : lines)
            addClipped(path, thinned(line, left, right), left, right);
        p.setPen(QPen(m_style.policy(colour), m_style.lineWidth, m_style.policyLine(colour), Qt::RoundCap, Qt::RoundJoin));
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
        if (g.cellArea().width() / std::max(1e-12, g.visibleColumns()) >= 4 * dot) { // dots only where they do not merge
            p.setPen(Qt::NoPen);
            p.setBrush(m_style.policy(colour));
            for (const QPointF &point : dots)
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
                widest = std::max(widest, m_metrics.horizontalAdvance(ByteUnits::format(value * memory)));
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
        return g.columnCenter(0) +
               (ratio - first) / (last - first) * (g.columnCenter(g.columns - 1) - g.columnCenter(0));
    };
    // The ratios at the cell area's edges: all of the grid, or what a zoom shows of it.
    const auto ratioAt = [&](double x) {
        const double c0 = g.columnCenter(0);
        const double c1 = g.columnCenter(g.columns - 1);
        return c1 > c0 ? first + (x - c0) / (c1 - c0) * (last - first) : first;
    };
    const bool zoomed = g.viewTo > g.viewFrom;
    const double shownFirst = zoomed ? std::max(first, ratioAt(cells.left())) : first;
    const double shownLast = zoomed ? std::min(last, ratioAt(cells.right())) : last;
    const double memory = static_cast<double>(m_sweep.baseline().memory);
    const bool bytes = parts.bytesAxis && plot.height() >= lineHeight() && memory > 0;
    const double span = xOf(shownLast) - xOf(shownFirst);
    double step = ratioTickStep(shownFirst, shownLast, span, bytes ? memory : 0);
    // Zoomed in past what "3.52 GiB" tells apart, the bytes get ticks of their own, exact.
    const bool exactBytes = bytes && !distinctByteLabels(ticksBetween(shownFirst, shownLast, step), memory);
    if (exactBytes)
        step = ratioTickStep(shownFirst, shownLast, span, 0);
    const int decimals = std::max(1, decimalsFor(step));
    const double label = 3 * lineHeight(); // text rectangles are wider than any label; text is centred
    const double tick = 0.35 * lineHeight();
    p.setRenderHint(QPainter::Antialiasing, false);
    const std::vector<double> ticks =
        shownLast > shownFirst ? ticksBetween(shownFirst, shownLast, step) : std::vector<double>{shownFirst};
    for (double value : ticks) {
        const double x = xOf(value);
        p.setPen(QPen(m_style.ink(), m_style.axisWidth));
        p.drawLine(QPointF(x, cells.bottom()), QPointF(x, cells.bottom() + tick));
        p.drawText(QRectF(x - 3 * label, cells.bottom() + tick, 6 * label, lineHeight()),
                   Qt::AlignHCenter | Qt::AlignTop, QString::number(value, 'f', decimals));
        if (bytes && !exactBytes) {
            p.drawLine(QPointF(x, plot.top() - tick), QPointF(x, plot.top()));
            p.drawText(QRectF(x - 3 * label, plot.top() - tick - lineHeight(), 6 * label, lineHeight()),
                       Qt::AlignHCenter | Qt::AlignBottom, ByteUnits::format(value * memory));
        }
    }
    if (exactBytes)
        paintByteAxis(p, g);
    if (parts.xAxisTitle)
        p.drawText(QRectF(cells.left(), cells.bottom() + tick + 1.15 * lineHeight(), cells.width(), lineHeight()),
                   Qt::AlignHCenter | Qt::AlignTop, xAxisTitle(parts.bytesAxis, cells.width()));
}

// The top axis of a strip zoomed down to bytes: budgets in exact bytes at steps of whole
// bytes (powers of two, or 1-2-5 in decimal units), as far apart as their labels need.
void StripPainter::paintByteAxis(QPainter &p, const StripGeometry &g) const
{
    const QRectF plot = g.plotArea();
    const double from = g.budgetAt(plot.left());
    const double to = g.budgetAt(plot.right());
    if (!(to > from))
        return;
    const double widest = m_metrics.horizontalAdvance(ByteUnits::exact(static_cast<std::int64_t>(std::ceil(to))));
    double step = 0;
    for (double candidate : byteTickSteps(to - from))
        if (candidate / (to - from) * plot.width() >= widest + 1.2 * lineHeight()) {
            step = candidate;
            break;
        }
    if (step == 0)
        return;
    const double tick = 0.35 * lineHeight();
    const double label = 3 * lineHeight();
    p.setPen(QPen(m_style.ink(), m_style.axisWidth));
    for (double value = std::ceil(from / step) * step; value <= to; value += step) {
        const double x = g.xOfBudget(value);
        p.drawLine(QPointF(x, plot.top() - tick), QPointF(x, plot.top()));
        p.drawText(QRectF(x - 3 * label, plot.top() - tick - lineHeight(), 6 * label, lineHeight()),
                   Qt::AlignHCenter | Qt::AlignBottom, ByteUnits::exact(static_cast<std::int64_t>(value)));
    }
}

} // namespace rematlens
