#include "views/timeline/timeline_chart.h"

#include "core/alloc/oom_kind.h"
#include "core/analysis/min_max_decimator.h"
#include "views/common/byte_units.h"
#include "views/common/number_format.h"
#include "views/common/text_wrap.h"
#include "views/timeline/chart_legend_rows.h"
#include "views/timeline/span_band_item.h"
#include "views/timeline/timeline_axes.h"

#include <QAreaSeries>
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsLineItem>
#include <QGraphicsPolygonItem>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLineSeries>
#include <QScatterSeries>
#include <QTextDocument>
#include <QTextOption>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace rematlens {

TimelineChart::TimelineChart(QChart *chart, const FigureStyle &style) : m_chart(chart), m_style(style)
{
    createSeries();
    styleChart();
    QObject::connect(m_chart, &QChart::plotAreaChanged, m_chart, [this] {
        m_axes->fit();
        updateLabels();
    });
    QObject::connect(m_chart, &QGraphicsWidget::geometryChanged, m_chart, [this] { layOutLegend(); });
    setPlot(nullptr); // no axes until there is a run

}

void TimelineChart::createSeries()
{
    m_axes = std::make_unique<TimelineAxes>(m_chart);
    m_x = m_axes->x();
    m_y = m_axes->y();
    m_depthAxis = m_axes->depth();
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
    m_fragmentationUpper = new QLineSeries;
    m_fragmentationLower = new QLineSeries;
    m_fragmentation = new QAreaSeries(m_fragmentationUpper, m_fragmentationLower);
    // The area takes its upper boundary as parent; it is in no chart yet, so break that cycle.
    m_fragmentation->setParent(nullptr);
    m_fragmentationUpper->setParent(m_fragmentation);
    m_fragmentationLower->setParent(m_fragmentation);
    m_fragmentation->setName(QStringLiteral("fragmentation"));
    m_reserved = new QLineSeries;
    m_reserved->setName(QStringLiteral("reserved"));
    m_allocated = new QLineSeries;
    m_allocated->setName(QStringLiteral("allocated"));
    add(m_memory = new QLineSeries, QStringLiteral("memory in use"), m_y);
    add(m_budget = new QLineSeries, QStringLiteral("budget"), m_y);
    add(m_evictions = new QScatterSeries, QStringLiteral("eviction"), m_y);
    m_rematBand = new SpanBandItem(m_chart, m_remat);
    m_legend = new ChartLegendRows(m_chart);
    m_key = new QGraphicsTextItem(m_chart);
    m_key->setZValue(12);
    m_key->document()->setDocumentMargin(0);
    m_key->document()->setDefaultTextOption(QTextOption(Qt::AlignHCenter));
    // The divergence and the failing allocation are drawn as items of their own, not series:
    // Qt Charts keeps legend room for a series even when its marker is hidden.
    m_marker = new QGraphicsLineItem(m_chart);
    m_markerHead = new QGraphicsPolygonItem(m_marker); // a small triangle on top, like a playhead
    m_divergence = new QGraphicsLineItem(m_chart);
    m_failure = new QGraphicsLineItem(m_chart);
    m_failureMark = new QGraphicsRectItem(m_chart);
    for (QGraphicsItem *item : {static_cast<QGraphicsItem *>(m_marker), static_cast<QGraphicsItem *>(m_divergence),
                                static_cast<QGraphicsItem *>(m_failure), static_cast<QGraphicsItem *>(m_failureMark)}) {
        item->setZValue(15);
        item->setVisible(false);
    }
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
    // The chart's layout keeps a blank band above a top legend by default.
    m_chart->layout()->setContentsMargins(0, 0, 0, 0);
    m_chart->legend()->setContentsMargins(0, 0, 0, 0);
    m_chart->setFont(s.font());
    // Qt Charts' legend keeps one row and elides names that do not fit; ours wraps instead.
    m_chart->legend()->hide();
    m_legend->setLook(s.font(0.95), s.ink());
    m_key->setFont(s.font(0.9));
    m_key->setDefaultTextColor(s.ink());
    for (QValueAxis *axis : {m_x, m_y, m_depthAxis}) {
        axis->setLabelsFont(s.font(0.95));
        axis->setTitleFont(s.font());
        axis->setLinePen(QPen(s.ink(), s.axisWidth));
        axis->setGridLinePen(QPen(s.grid(), s.axisWidth * 0.8));
        axis->setLabelsColor(s.ink());
        axis->setTitleBrush(s.ink());
    }
    m_depthAxis->setGridLineVisible(false);
    m_remat->setBrush(s.rematShade());
    m_rematBand->setBrush(s.rematShade());
    m_remat->setPen(Qt::NoPen);
    m_locked->setBrush(s.lockedFill());
    m_locked->setPen(Qt::NoPen);
    m_memory->setPen(QPen(s.ink(), s.lineWidth * 0.8, Qt::SolidLine, Qt::FlatCap, Qt::MiterJoin));
    styleComparison();
    m_budget->setPen(QPen(s.budgetLine(), s.lineWidth, Qt::DashDotLine));
    m_depth->setPen(QPen(s.nesting(), s.lineWidth * 0.8, Qt::DashLine));
    m_evictions->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
    m_evictions->setMarkerSize(s.fontSize * 0.55);
    m_evictions->setColor(s.eviction());
    m_evictions->setBorderColor(s.eviction());
    m_divergence->setPen(QPen(s.divergence(), s.lineWidth * 1.2, Qt::DotLine));
    QColor markerInk = s.ink();
    markerInk.setAlphaF(0.8);
    m_marker->setPen(QPen(markerInk, 1.5));
    m_markerHead->setBrush(markerInk);
    m_markerHead->setPen(Qt::NoPen);
    m_failure->setPen(QPen(s.failure(), s.lineWidth * 2.5));
    m_failureMark->setBrush(s.failure());
    m_failureMark->setPen(Qt::NoPen);
    for (QGraphicsSimpleTextItem *label : {m_failureLabel, m_divergenceLabel}) {
        label->setFont(s.font(0.9));
        label->setBrush(s.ink());
        auto *box = static_cast<QGraphicsRectItem *>(label->parentItem());
        box->setBrush(QColor(255, 255, 255, 225));
        box->setPen(QPen(s.grid(), s.axisWidth));
    }
}

void TimelineChart::setLegendStyle(LegendStyle style)
{
    m_legendStyle = style;
    layOutLegend();
}

void TimelineChart::setRunsNamed(bool named)
{
    m_runsNamed = named;
    if (m_plot)
        nameSeries();
    layOutLegend();
}

void TimelineChart::setXAxisText(bool labels, bool title)
{
    m_axes->setXText(labels, title);
}

// A narrow figure has no room for the legend's rows: a few words say which line is which,
// wrapped between clauses onto as many lines as the width needs.
QStringList TimelineChart::compactKey() const
{
    QStringList key;
    if (m_plot->comparison)
        key << QStringLiteral("solid: ") + runName(*m_plot->run, *m_plot->comparison, QStringLiteral("selected run"))
            << QStringLiteral("dashed: ") + runName(*m_plot->comparison, *m_plot->run, QStringLiteral("overlaid run"));
    else
        key << QStringLiteral("solid: ") + runName(*m_plot->run, *m_plot->run, QStringLiteral("in use"));
    if (m_plot->track->hasAllocation())
        key << QStringLiteral("blue: reserved, purple: allocated");
    return key << QStringLiteral("dash-dot: budget") << QStringLiteral("▲ eviction");
}

// A run's name that tells it from the other run drawn: its role, its policy where the two
// differ, and its budget as a ratio and in bytes, exact where the rounded sizes read alike (a
// hole's edges are a byte apart, and their ratios print alike).
QString TimelineChart::runName(const InspectedRun &run, const InspectedRun &other, const QString &role)
{
    const RunRequest &r = run.request;
    QString name = role;
    if (r.config.policy.name != other.request.config.policy.name)
        name += QStringLiteral(", ") + QString::fromStdString(r.config.policy.name);
    QString size = ByteUnits::format(double(r.config.budget));
    if (&run != &other && size == ByteUnits::format(double(other.request.config.budget)))
        size = ByteUnits::exact(r.config.budget);
    return name + QStringLiteral(" at %1 (%2)").arg(QString::number(r.ratio, 'g', 6), size);
}

// Alone, a run's curve and budget carry its ratio (unless the figure names the runs itself);
// beside a second run, the legend says which one is selected and which is overlaid, with both
// budgets.
void TimelineChart::nameSeries()
{
    const InspectedRun &run = *m_plot->run;
    const QString ratio = m_runsNamed ? QStringLiteral(" ") + QString::number(run.request.ratio, 'g', 6) : QString();
    m_budget->setName(QStringLiteral("budget") + ratio);
    if (!m_plot->comparison) {
        m_memory->setName(QStringLiteral("in use") + ratio);
        return;
    }
    const InspectedRun &overlaid = *m_plot->comparison;
    m_memory->setName(QStringLiteral("in use, ") + runName(run, overlaid, QStringLiteral("selected run")));
    m_comparison->setName(QStringLiteral("in use, ") + runName(overlaid, run, QStringLiteral("overlaid run")));
}

void TimelineChart::setPlot(const TimelinePlot *plot)
{
    m_plot = plot && !plot->empty() ? plot : nullptr;
    m_scale = ByteScale::forPeak(m_plot ? m_plot->peakBytes() : 1.0);
    // An empty chart shows no legend or axes: none of the last trace's names linger.
    for (QValueAxis *axis : {m_x, m_y, m_depthAxis})
        axis->setVisible(m_plot != nullptr);
    const bool byStep = !m_plot || m_plot->axis == TimelineAxis::Step;
    chooseXScale(byStep);
    const bool compare = m_plot && m_plot->comparisonTrack;
    showComparison(compare);
    showAllocation(m_plot && m_plot->track->hasAllocation());
    if (m_plot) {
        nameSeries();
        // A failure's label goes in a band above the budget, where no memory curve runs.
        const bool failed = m_plot->track->failure() || (compare && m_plot->comparisonTrack->failure());
        const double top = m_scale.toUnits(m_plot->peakBytes()) * (failed ? 1.35 : 1.08);
        fitNesting();
        const QString unit = QString::fromLatin1(m_scale.unit.data(), qsizetype(m_scale.unit.size()));
        m_axes->setValueRanges(top, unit, m_depthMax * 1.25);
    } else {
        m_axes->clearValues();
    }
    layOutLegend();
}

void TimelineChart::layOutLegend()
{
    const qreal edge = 2;
    const qreal width = m_chart->size().width() - 2 * edge;
    const bool rows = m_plot && m_legendStyle == LegendStyle::Rows;
    const bool compact = m_plot && m_legendStyle == LegendStyle::Compact;
    m_legend->setVisible(rows);
    m_key->setVisible(compact);
    qreal height = rows ? m_legend->layOut(edge, edge, width) : 0;
    if (compact) {
        const QStringList lines =
            TextWrap::clauses(compactKey(), QStringLiteral("; "), QFontMetricsF(m_key->font()), width);
        m_key->setTextWidth(std::max<qreal>(width, 1));
        m_key->setPlainText(lines.join(QLatin1Char('\n')));
        m_key->setPos(edge, edge);
        height = m_key->boundingRect().height();
    }
    const QMargins margins(int(edge), int(edge + std::ceil(height)), int(edge), int(edge));
    if (m_chart->margins() != margins)
        m_chart->setMargins(margins);
    m_axes->fitXText();
}

void TimelineChart::setMarkedX(std::optional<double> dataX)
{
    m_markedX = dataX;
    placeMarker();
}

std::optional<QLineF> TimelineChart::markerLine() const
{
    if (!m_marker->isVisible())
        return std::nullopt;
    return m_marker->line();
}

std::optional<QRectF> TimelineChart::failureLabelRect() const
{
    const auto *box = static_cast<const QGraphicsRectItem *>(m_failureLabel->parentItem());
    if (!box->isVisible())
        return std::nullopt;
    return box->rect().translated(box->pos());
}

// Nesting beyond the model's own call: 0 while nothing is rematerialized.
void TimelineChart::fitNesting()
{
    m_nesting.clear();
    m_nesting.reserve(m_plot->track->depth().size());
    for (double d : m_plot->track->depth())
        m_nesting.push_back(std::max(d - 1, 0.0));
    m_depthMax = std::max(2, m_plot->track->peakDepth() - 1);
}

// Each fit may change what the next layout finds (a title's wording, a tick interval): the
// chart is laid out until nothing changes, a few times at most.
void TimelineChart::settle()
{
    QGraphicsLayout *layout = m_chart->layout();
    for (int pass = 0; pass < 4; ++pass) {
        layout->activate();
        if (layout->isActivated())
            return;
    }
}

void TimelineChart::showRange(double from, double to, int columns)
{
    m_axes->showX(ax(from), ax(to));
    if (!m_plot) {
        for (QLineSeries *s : {m_memory, m_comparison, m_budget, m_depth, m_rematUpper, m_lockedUpper, m_reserved,
                               m_allocated, m_fragmentationUpper, m_fragmentationLower})
            s->clear();
        m_rematBand->setSpans({});
        m_evictions->clear();
        updateLabels();
        return;
    }
    columns = std::max(columns, 16);
    fillMemory(from, to, columns);
    fillEvents(from, to, columns);
    updateLabels();
}

// Clocks run to hundreds of millions; the axis counts them in thousands, millions, ... so
// tick labels stay short.
void TimelineChart::chooseXScale(bool byStep)
{
    static const char *const powers[] = {"", "10³", "10⁶", "10⁹", "10¹²"};
    m_xDivisor = 1;
    int power = 0;
    const double extent = m_plot ? m_plot->extent() : 1.0;
    while (!byStep && power < 4 && extent / m_xDivisor >= 10000) {
        m_xDivisor *= 1000;
        ++power;
    }
    const QString scale = QString::fromUtf8(powers[power]);
    if (byStep)
        m_axes->setXTitles({QStringLiteral("model step"), QStringLiteral("step")});
    else if (scale.isEmpty())
        m_axes->setXTitles({QStringLiteral("clock (cost units)"), QStringLiteral("clock")});
    else
        m_axes->setXTitles({QStringLiteral("clock (%1 cost units)").arg(scale), QStringLiteral("clock (%1)").arg(scale)});
}

// Memory holds its value until the next sample, so the decimated points are drawn as steps.
// The points of one pixel column share that column's first x: each column is one vertical
// stroke from its minimum to its maximum rather than a comb of sub-pixel steps.
QList<QPointF> TimelineChart::stepped(const TimelineTrack &track, const std::vector<double> &ys, double from, double to,
                                      int columns, bool inBytes) const
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

// An area's boundary without the strokes inside a pixel column: a stroke there is zero wide
// and covers nothing, but costs the rasterizer a crossing on every scanline it spans (filling
// the TreeLSTM's locked memory at 1920 pixels took most of a 100 ms repaint). Of each column's
// points it keeps the first and the last; the filled shape is the same.
QList<QPointF> TimelineChart::areaBoundary(const QList<QPointF> &stepped)
{
    QList<QPointF> out;
    out.reserve(stepped.size());
    for (qsizetype i = 0; i < stepped.size(); ++i) {
        const bool columnGoesOn = i > 0 && i + 1 < stepped.size() && stepped[i - 1].x() == stepped[i].x()
                                  && stepped[i + 1].x() == stepped[i].x();
        if (!columnGoesOn)
            out.append(stepped[i]);
    }
    return out;
}

void TimelineChart::fillMemory(double from, double to, int columns)
{
    const TimelineTrack &track = *m_plot->track;
    m_memory->replace(stepped(track, track.memory(), from, to, columns, true));
    m_lockedUpper->replace(areaBoundary(stepped(track, track.locked(), from, to, columns, true)));
    m_depth->replace(stepped(track, m_nesting, from, to, columns, false));
    if (m_plot->comparisonTrack)
        m_comparison->replace(
            stepped(*m_plot->comparisonTrack, m_plot->comparisonTrack->memory(), from, to, columns, true));
    if (track.hasAllocation())
        fillAllocation(from, to, columns);
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

// The second run's curve is in the chart, and so in the legend, only while there is one.
void TimelineChart::showComparison(bool shown)
{
    const bool inChart = m_comparison->chart() != nullptr;
    if (shown == inChart)
        return;
    if (shown) {
        m_chart->addSeries(m_comparison);
        m_comparison->attachAxis(m_x);
        m_comparison->attachAxis(m_y);
        styleComparison();
    } else {
        m_chart->removeSeries(m_comparison); // ownership comes back: the destructor deletes it
    }
}

void TimelineChart::fillAllocation(double from, double to, int columns)
{
    const TimelineTrack &track = *m_plot->track;
    QList<QPointF> reserved = stepped(track, track.reserved(), from, to, columns, true);
    QList<QPointF> allocated = stepped(track, track.allocated(), from, to, columns, true);
    m_fragmentationUpper->replace(areaBoundary(reserved));
    m_fragmentationLower->replace(areaBoundary(allocated));
    m_reserved->replace(std::move(reserved));
    m_allocated->replace(std::move(allocated));
}

// The allocator's series join the chart, and its legend, only for a run under a model: under
// the byte sum the chart is exactly what it was without them. They go under the memory line.
void TimelineChart::showAllocation(bool shown)
{
    const bool inChart = m_reserved->chart() != nullptr;
    if (shown == inChart)
        return;
    QList<QAbstractSeries *> series{m_fragmentation, m_allocated, m_reserved};
    for (QAbstractSeries *s : series) {
        if (shown) {
            m_chart->addSeries(s);
            s->attachAxis(m_x);
            s->attachAxis(m_y);
        } else {
            m_chart->removeSeries(s);
        }
    }
    if (shown) {
        m_fragmentation->setBrush(m_style.fragmentationFill());
        m_fragmentation->setPen(Qt::NoPen);
        m_reserved->setPen(QPen(m_style.reserved(), m_style.lineWidth, Qt::SolidLine, Qt::FlatCap, Qt::MiterJoin));
        m_allocated->setPen(
            QPen(m_style.allocated(), m_style.lineWidth * 0.8, Qt::SolidLine, Qt::FlatCap, Qt::MiterJoin));
    }
}

void TimelineChart::styleComparison()
{
    m_comparison->setPen(QPen(m_style.policy(0), m_style.lineWidth * 0.8, Qt::DashLine, Qt::FlatCap, Qt::MiterJoin));
}

TimelineChart::~TimelineChart()
{
    if (!m_comparison->chart())
        delete m_comparison;
    if (!m_reserved->chart()) {
        delete m_reserved;
        delete m_allocated;
        delete m_fragmentation;
    }
}

// Where a value lands in the chart's scene; nothing when its x is outside the shown range.
std::optional<QPointF> TimelineChart::scenePoint(double dataX, double y) const
{
    const double x = ax(dataX);
    if (x < m_x->min() || x > m_x->max())
        return std::nullopt;
    return m_chart->mapToPosition(QPointF(x, y), m_memory);
}

// Under an allocator model a request can fail with no byte short (fragmentation): the label
// then says why and names the largest free block instead.
QString TimelineChart::failureText(const Failure &failure)
{
    const QString tensor = QString::fromStdString(failure.tensor);
    if (!failure.oomKind)
        return QStringLiteral("out of memory: %1 short (%2 needs %3)")
            .arg(ByteUnits::format(double(failure.bytesShort)), tensor, ByteUnits::format(double(failure.bytesNeeded)));
    const std::string_view kind = oomKindName(*failure.oomKind);
    return QStringLiteral("out of memory (%1): %2 asks %3, largest free block %4")
        .arg(QString::fromLatin1(kind.data(), qsizetype(kind.size())), tensor,
             ByteUnits::format(double(failure.request)), ByteUnits::format(double(failure.largestFreeBlock)));
}

const TimelineTrack *TimelineChart::failedTrack() const
{
    for (const auto *track : {&*m_plot->track, m_plot->comparisonTrack ? &*m_plot->comparisonTrack : nullptr})
        if (track && track->failure())
            return track;
    return nullptr;
}

// A label on a white box beside x, its top at `at.y()`, kept inside the plot area: right of x
// where it fits, else left of it, else against the plot's edge on the roomier side of x (a long
// label in a narrow window); wider than the plot, it wraps.
void TimelineChart::placeLabel(QGraphicsSimpleTextItem *label, QPointF at, const QString &text) const
{
    const QRectF area = m_chart->plotArea();
    const qreal pad = m_style.fontSize * 0.25;
    const qreal gap = m_style.fontSize * 0.6;
    label->setText(TextWrap::lines(text, QFontMetricsF(label->font()), area.width() - 2 * pad).join(QLatin1Char('\n')));
    auto *box = static_cast<QGraphicsRectItem *>(label->parentItem());
    const QRectF textBox = label->boundingRect().adjusted(-pad, -pad, pad, pad);
    if (at.x() + gap + textBox.width() <= area.right())
        at.rx() += gap;
    else if (at.x() - gap - textBox.width() >= area.left())
        at.rx() -= gap + textBox.width();
    else if (area.right() - at.x() > at.x() - area.left())
        at.rx() = std::max(area.left(), area.right() - textBox.width());
    else
        at.rx() = area.left();
    at.ry() = std::clamp(at.y(), area.top(), std::max(area.top(), area.bottom() - textBox.height()));
    box->setRect(QRectF(QPointF(0, 0), textBox.size()));
    label->setPos(pad, pad);
    box->setPos(at);
    box->setVisible(true);
}

void TimelineChart::placeMarker()
{
    const std::optional<QPointF> bottom =
        m_plot && m_markedX ? scenePoint(*m_markedX, m_y->min()) : std::optional<QPointF>();
    const std::optional<QPointF> top = bottom ? scenePoint(*m_markedX, m_y->max()) : std::optional<QPointF>();
    m_marker->setVisible(bottom && top);
    if (!bottom || !top)
        return;
    m_marker->setLine(QLineF(*bottom, *top));
    const qreal size = m_style.fontSize * 0.4;
    m_markerHead->setPolygon(QPolygonF{QPointF(top->x() - size, top->y()), QPointF(top->x() + size, top->y()),
                                       QPointF(top->x(), top->y() + size * 1.4)});
}

void TimelineChart::updateLabels()
{
    for (QGraphicsItem *item :
         {static_cast<QGraphicsItem *>(m_divergence), static_cast<QGraphicsItem *>(m_failure),
          static_cast<QGraphicsItem *>(m_failureMark), m_failureLabel->parentItem(), m_divergenceLabel->parentItem()})
        item->setVisible(false);
    placeMarker();
    if (!m_plot)
        return;
    const QRectF area = m_chart->plotArea();
    const qreal pad = m_style.fontSize * 0.25;
    if (const TimelineTrack *track = failedTrack()) {
        const auto &f = *track->failure();
        const double base = m_scale.toUnits(f.memory);
        const double tip = m_scale.toUnits(f.memory + double(f.failure.bytesNeeded));
        const auto from = scenePoint(f.x, base);
        const auto to = scenePoint(f.x, std::min(tip, m_y->max()));
        if (from && to) {
            m_failure->setLine(QLineF(*from, *to));
            const qreal size = m_style.fontSize * 0.8;
            m_failureMark->setRect(QRectF(to->x() - size / 2, to->y() - size / 2, size, size));
            m_failure->setVisible(true);
            m_failureMark->setVisible(true);
            // In the band above the budget, which the memory curves never enter.
            placeLabel(m_failureLabel, QPointF(from->x(), area.top() + pad), failureText(f.failure));
        }
    }
    if (m_plot->divergenceX) {
        const auto bottom = scenePoint(*m_plot->divergenceX, 0);
        const auto top = scenePoint(*m_plot->divergenceX, m_y->max());
        if (bottom && top) {
            m_divergence->setLine(QLineF(*bottom, *top));
            m_divergence->setVisible(true);
            placeLabel(m_divergenceLabel, QPointF(bottom->x(), area.bottom() - area.height() * 0.22),
                       QStringLiteral("histories diverge\n(event %1)").arg(m_plot->divergence->index));
        }
    }
}

} // namespace rematlens
