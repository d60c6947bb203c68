#include "views/timeline/timeline_chart.h"

#include "core/analysis/min_max_decimator.h"
#include "views/common/nice_ticks.h"
#include "views/common/number_format.h"
#include "views/timeline/span_band_item.h"

#include <QAreaSeries>
#include <QChart>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace rematlens {

namespace {

QString bytesText(double bytes)
{
    const ByteScale s = ByteScale::forPeak(std::abs(bytes));
    return QStringLiteral("%1 %2").arg(numberLocale().toString(s.toUnits(bytes), 'f', 2),
                                       QString::fromLatin1(s.unit.data(), qsizetype(s.unit.size())));
}

} // namespace

TimelineChart::TimelineChart(QChart *chart, const FigureStyle &style) : m_chart(chart), m_style(style)
{
    createSeries();
    styleChart();
    QObject::connect(m_chart, &QChart::plotAreaChanged, m_chart, [this] { updateLabels(); });
}

void TimelineChart::createSeries()
{
    m_x = new QValueAxis;
    m_y = new QValueAxis;
    m_depthAxis = new QValueAxis;
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    m_chart->addAxis(m_depthAxis, Qt::AlignRight);
    const auto add = [this](QAbstractSeries *series, const QString &name, QValueAxis *y) {
        series->setName(name);
        m_chart->addSeries(series);
        series->attachAxis(m_x);
        series->attachAxis(y);
    };
    const auto area = [](QLineSeries *&upper) {
        upper = new QLineSeries;
        auto *a = new QAreaSeries(upper);
        upper->setParent(a); // an area series does not own its boundary
        return a;
    };
    // The spans are painted by m_rematBand; this empty series only gives them a legend entry.
    m_remat = area(m_rematUpper);
    add(m_remat, QStringLiteral("remat"), m_y);
    m_locked = area(m_lockedUpper);
    add(m_locked, QStringLiteral("locked"), m_y);
    add(m_depth = new QLineSeries, QStringLiteral("nesting (right)"), m_depthAxis);
    add(m_comparison = new QLineSeries, QStringLiteral("comparison"), m_y);
    add(m_memory = new QLineSeries, QStringLiteral("memory in use"), m_y);
    add(m_budget = new QLineSeries, QStringLiteral("budget"), m_y);
    add(m_evictions = new QScatterSeries, QStringLiteral("eviction"), m_y);
    add(m_divergence = new QLineSeries, QStringLiteral("histories diverge"), m_y);
    add(m_failure = new QLineSeries, QStringLiteral("failing allocation"), m_y);
    add(m_failureMark = new QScatterSeries, QString(), m_y);
    m_rematBand = new SpanBandItem(m_chart, m_remat);
    // Labels sit on a white box so the lines under them stay out of the way of the text.
    for (QGraphicsSimpleTextItem **label : {&m_failureLabel, &m_divergenceLabel}) {
        auto *box = new QGraphicsRectItem(m_chart);
        box->setZValue(20);
        *label = new QGraphicsSimpleTextItem(box);
    }
}

void TimelineChart::styleChart()
{
    const FigureStyle &s = m_style;
    m_chart->setBackgroundRoundness(0);
    m_chart->setMargins(QMargins(2, 2, 2, 2));
    m_chart->setFont(s.font());
    m_chart->legend()->setFont(s.font(0.95));
    m_chart->legend()->setAlignment(Qt::AlignTop);
    for (QValueAxis *axis : {m_x, m_y, m_depthAxis}) {
        axis->setLabelsFont(s.font(0.95));
        axis->setTitleFont(s.font());
        axis->setLinePen(QPen(s.ink(), s.axisWidth));
        axis->setGridLinePen(QPen(s.grid(), s.axisWidth * 0.8));
        axis->setLabelsColor(s.ink());
        axis->setTitleBrush(s.ink());
    }
    m_depthAxis->setGridLineVisible(false);
    m_depthAxis->setLabelFormat(QStringLiteral("%d"));
    m_remat->setBrush(s.rematShade());
    m_rematBand->setBrush(s.rematShade());
    m_remat->setPen(Qt::NoPen);
    m_locked->setBrush(s.lockedFill());
    m_locked->setPen(Qt::NoPen);
    m_memory->setPen(QPen(s.ink(), s.lineWidth * 0.8, Qt::SolidLine, Qt::FlatCap, Qt::MiterJoin));
    m_comparison->setPen(QPen(s.policy(0), s.lineWidth * 0.8, Qt::DashLine, Qt::FlatCap, Qt::MiterJoin));
    m_budget->setPen(QPen(s.budgetLine(), s.lineWidth, Qt::DashDotLine));
    m_depth->setPen(QPen(s.policy(3), s.lineWidth * 0.8));
    m_evictions->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
    m_evictions->setMarkerSize(s.fontSize * 0.55);
    m_evictions->setColor(s.eviction());
    m_evictions->setBorderColor(s.eviction());
    m_divergence->setPen(QPen(s.divergence(), s.lineWidth * 1.2, Qt::DotLine));
    m_failure->setPen(QPen(s.failure(), s.lineWidth * 2.5));
    m_failureMark->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    m_failureMark->setMarkerSize(s.fontSize * 0.8);
    m_failureMark->setColor(s.failure());
    m_failureMark->setBorderColor(s.failure());
    for (QGraphicsSimpleTextItem *label : {m_failureLabel, m_divergenceLabel}) {
        label->setFont(s.font(0.9));
        label->setBrush(s.ink());
        auto *box = static_cast<QGraphicsRectItem *>(label->parentItem());
        box->setBrush(QColor(255, 255, 255, 225));
        box->setPen(QPen(s.grid(), s.axisWidth));
    }
    for (QValueAxis *axis : {m_x, m_y}) {
        axis->setTickType(QValueAxis::TicksDynamic);
        axis->setTickAnchor(0);
    }
    // The failure and the divergence carry labels of their own.
    for (QAbstractSeries *series : {static_cast<QAbstractSeries *>(m_failureMark), static_cast<QAbstractSeries *>(m_failure),
                                    static_cast<QAbstractSeries *>(m_divergence)})
        for (QLegendMarker *marker : m_chart->legend()->markers(series))
            marker->setVisible(false);
}

// A single-column figure has no room for a legend (Qt Charts keeps room even for hidden
// entries), so one line of title says which line is which.
void TimelineChart::setCompactLegend(bool compact)
{
    m_chart->legend()->setVisible(!compact);
    if (!compact || !m_plot) {
        m_chart->setTitle(QString());
        return;
    }
    const auto ratio = [](const InspectedRun &r) { return QString::number(r.request.ratio, 'g', 6); };
    QString title = QStringLiteral("solid: %1").arg(ratio(*m_plot->run));
    if (m_plot->comparison)
        title += QStringLiteral(", dashed: %1").arg(ratio(*m_plot->comparison));
    m_chart->setTitleFont(m_style.font(0.9));
    m_chart->setTitle(title + QStringLiteral(", dash-dot: budget; ▲ eviction"));
}

void TimelineChart::setPlot(const TimelinePlot *plot)
{
    m_plot = plot && !plot->empty() ? plot : nullptr;
    m_scale = ByteScale::forPeak(m_plot ? m_plot->peakBytes() : 1.0);
    const QString unit = QString::fromLatin1(m_scale.unit.data(), qsizetype(m_scale.unit.size()));
    m_y->setTitleText(QStringLiteral("memory (%1)").arg(unit));
    m_depthAxis->setTitleText(QStringLiteral("remat nesting"));
    const bool byStep = !m_plot || m_plot->axis == TimelineAxis::Step;
    chooseXScale(byStep);
    const bool compare = m_plot && m_plot->comparisonTrack;
    m_comparison->setVisible(compare);
    m_divergence->setVisible(compare && m_plot->divergenceX.has_value());
    for (QLegendMarker *marker : m_chart->legend()->markers(m_comparison))
        marker->setVisible(compare);
    if (m_plot) {
        const auto ratioText = [](const InspectedRun &r) { return QString::number(r.request.ratio, 'g', 6); };
        m_memory->setName(QStringLiteral("in use %1").arg(ratioText(*m_plot->run)));
        m_budget->setName(QStringLiteral("budget %1").arg(ratioText(*m_plot->run)));
        if (compare)
            m_comparison->setName(QStringLiteral("in use %1").arg(ratioText(*m_plot->comparison)));
        const double top = m_scale.toUnits(m_plot->peakBytes()) * 1.08;
        m_y->setRange(0, top > 0 ? top : 1);
        m_y->setTickInterval(niceTickInterval(m_y->max(), 5));
        fitNesting();
    }
}

// Nesting beyond the model's own call: 0 while nothing is rematerialized.
void TimelineChart::fitNesting()
{
    m_nesting.clear();
    m_nesting.reserve(m_plot->track->depth().size());
    for (double d : m_plot->track->depth())
        m_nesting.push_back(std::max(d - 1, 0.0));
    const int depth = std::max(2, m_plot->track->peakDepth() - 1);
    m_depthAxis->setRange(0, depth * 1.25);
    m_depthAxis->setTickType(QValueAxis::TicksDynamic);
    m_depthAxis->setTickAnchor(0);
    m_depthAxis->setTickInterval(std::max(1.0, niceTickInterval(depth, 4)));
}

void TimelineChart::showRange(double from, double to, int columns)
{
    m_x->setRange(ax(from), ax(to));
    const double interval = niceTickInterval(ax(to) - ax(from), 6);
    m_x->setTickInterval(interval);
    // As many decimals as the ticks need when zoomed in, none otherwise.
    const int decimals = std::clamp(int(-std::floor(std::log10(interval))), 0, 6);
    m_x->setLabelFormat(QStringLiteral("%.%1f").arg(decimals));
    if (!m_plot) {
        for (QLineSeries *s : {m_memory, m_comparison, m_budget, m_depth, m_divergence, m_failure, m_rematUpper, m_lockedUpper})
            s->clear();
        m_rematBand->setSpans({});
        m_evictions->clear();
        m_failureMark->clear();
        updateLabels();
        return;
    }
    columns = std::max(columns, 16);
    fillMemory(from, to, columns);
    fillEvents(from, to, columns);
    fillMarkers();
    updateLabels();
}

// Clocks run to hundreds of millions; the axis counts them in thousands, millions, ... so
// tick labels stay short.
void TimelineChart::chooseXScale(bool byStep)
{
    static const char *const powers[] = {"", "10³ ", "10⁶ ", "10⁹ ", "10¹² "};
    m_xDivisor = 1;
    int power = 0;
    const double extent = m_plot ? m_plot->extent() : 1.0;
    while (!byStep && power < 4 && extent / m_xDivisor >= 10000) {
        m_xDivisor *= 1000;
        ++power;
    }
    m_x->setTitleText(byStep ? QStringLiteral("model step")
                             : QStringLiteral("clock (%1cost units)").arg(QString::fromUtf8(powers[power])));
}

// Memory holds its value until the next sample, so the decimated points are drawn as steps.
// The points of one pixel column share that column's first x: each column is one vertical
// stroke from its minimum to its maximum rather than a comb of sub-pixel steps.
QList<QPointF> TimelineChart::stepped(const TimelineTrack &track, const std::vector<double> &ys, double from,
                                      double to, int columns, bool inBytes) const
{
    const MinMaxDecimator decimator(from, to, std::size_t(columns));
    const std::vector<PlotPoint> points = decimator.decimate(track.xs(), ys);
    QList<QPointF> out;
    out.reserve(qsizetype(points.size() * 2));
    std::size_t column = std::size_t(-1);
    double x = 0;
    for (const PlotPoint &p : points) {
        if (const std::size_t c = decimator.columnOf(p.x); c != column || p.x < from || p.x > to) {
            column = c;
            x = p.x;
        }
        const double y = inBytes ? m_scale.toUnits(p.y) : p.y;
        if (!out.isEmpty())
            out.append(QPointF(ax(x), out.back().y()));
        out.append(QPointF(ax(x), y));
    }
    return out;
}

void TimelineChart::fillMemory(double from, double to, int columns)
{
    const TimelineTrack &track = *m_plot->track;
    m_memory->replace(stepped(track, track.memory(), from, to, columns, true));
    QList<QPointF> locked = stepped(track, track.locked(), from, to, columns, true);
    m_lockedUpper->replace(locked);
    m_depth->replace(stepped(track, m_nesting, from, to, columns, false));
    if (m_plot->comparisonTrack)
        m_comparison->replace(stepped(*m_plot->comparisonTrack, m_plot->comparisonTrack->memory(), from, to, columns, true));
    const double budget = m_scale.toUnits(double(track.budget()));
    m_budget->replace(QList<QPointF>{QPointF(ax(from), budget), QPointF(ax(to), budget)});
}

// One eviction marker per pixel column, and rematerialization spans merged where the gap
// between them is under a column: each pixel shows whether anything happened there.
void TimelineChart::fillEvents(double from, double to, int columns)
{
    const TimelineTrack &track = *m_plot->track;
    const double column = (to - from) / columns;
    QList<QPointF> marks;
    double lastX = -1e300;
    for (const TimelineTrack::Marker &m : track.evictions()) {
        if (m.x < from || m.x > to || m.x - lastX < column)
            continue;
        marks.append(QPointF(ax(m.x), m_scale.toUnits(m.memory)));
        lastX = m.x;
    }
    m_evictions->replace(marks);

    QList<QPair<double, double>> bands;
    double spanFrom = 0;
    double spanTo = -1e300;
    const auto flush = [&] {
        if (spanTo < spanFrom)
            return;
        const double a = std::max(spanFrom, from);
        bands.append({ax(a), ax(std::max(std::min(spanTo, to), a + column * 0.5))});
    };
    for (const TimelineTrack::Span &s : track.rematSpans()) {
        if (s.to < from || s.from > to)
            continue;
        if (s.from - spanTo > column) {
            flush();
            spanFrom = s.from;
        }
        spanTo = std::max(spanTo, s.to);
    }
    flush();
    m_rematBand->setSpans(std::move(bands));
}

void TimelineChart::fillMarkers()
{
    const double top = m_y->max();
    if (m_plot->divergenceX)
        m_divergence->replace(QList<QPointF>{QPointF(ax(*m_plot->divergenceX), 0), QPointF(ax(*m_plot->divergenceX), top)});
    else
        m_divergence->clear();
    m_failure->clear();
    m_failureMark->clear();
    // The failing run's allocation, drawn as the bar it needed on top of the memory in use.
    for (const auto *track : {&*m_plot->track, m_plot->comparisonTrack ? &*m_plot->comparisonTrack : nullptr}) {
        if (!track || !track->failure())
            continue;
        const auto &f = *track->failure();
        const double base = m_scale.toUnits(f.memory);
        const double tip = m_scale.toUnits(f.memory + double(f.failure.bytesNeeded));
        m_failure->replace(QList<QPointF>{QPointF(ax(f.x), base), QPointF(ax(f.x), tip)});
        m_failureMark->replace(QList<QPointF>{QPointF(ax(f.x), tip)});
        break;
    }
}

void TimelineChart::updateLabels()
{
    m_failureLabel->parentItem()->setVisible(false);
    m_divergenceLabel->parentItem()->setVisible(false);
    if (!m_plot)
        return;
    const QRectF area = m_chart->plotArea();
    const auto place = [&](QGraphicsSimpleTextItem *label, QPointF value, const QString &text) {
        value.setX(ax(value.x()));
        if (value.x() < m_x->min() || value.x() > m_x->max())
            return;
        label->setText(text);
        auto *box = static_cast<QGraphicsRectItem *>(label->parentItem());
        const qreal pad = m_style.fontSize * 0.25;
        const QRectF textBox = label->boundingRect().adjusted(-pad, -pad, pad, pad);
        QPointF at = m_chart->mapToPosition(value, m_memory);
        const qreal gap = m_style.fontSize * 0.6;
        at.rx() = at.x() + textBox.width() + gap > area.right() ? at.x() - textBox.width() - gap : at.x() + gap;
        at.ry() = std::clamp(at.y() - textBox.height() / 2, area.top(), area.bottom() - textBox.height());
        box->setRect(QRectF(QPointF(0, 0), textBox.size()));
        label->setPos(pad, pad);
        box->setPos(at);
        box->setVisible(true);
    };
    for (const auto *track : {&*m_plot->track, m_plot->comparisonTrack ? &*m_plot->comparisonTrack : nullptr}) {
        if (!track || !track->failure())
            continue;
        const auto &f = *track->failure();
        // Low in the plot, beside the failure: the memory curve runs near the budget above.
        place(m_failureLabel, QPointF(f.x, m_y->max() * 0.5),
              QStringLiteral("out of memory: %1 short\n%2 needs %3")
                  .arg(bytesText(double(f.failure.bytesShort)), QString::fromStdString(f.failure.tensor),
                       bytesText(double(f.failure.bytesNeeded))));
        break;
    }
    if (m_plot->divergenceX)
        place(m_divergenceLabel, QPointF(*m_plot->divergenceX, m_y->max() * 0.12),
              QStringLiteral("histories diverge\n(event %1)").arg(m_plot->divergence->index));
}

} // namespace rematlens
