#include "views/timeline/timeline_axes.h"

#include "views/common/axis_ticks.h"
#include "views/common/nice_ticks.h"
#include "views/timeline/chart_text_fit.h"

#include <QChart>
#include <QFontMetricsF>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace rematlens {

namespace {

// As many decimals as the x ticks need when zoomed in, none otherwise.
int xDecimals(double interval)
{
    return std::clamp(int(-std::floor(std::log10(interval))), 0, 6);
}

// The widest of an axis's labels, multiples of its interval from 0 in [min, max].
qreal widestLabel(const QValueAxis &axis, double min, double max, double interval, int decimals)
{
    qreal widest = 0;
    const double first = std::ceil(min / interval - 1e-9);
    const double last = std::min(std::floor(max / interval + 1e-9), first + kMaxTicks);
    for (double k = first; k <= last; ++k)
        widest = std::max(widest,
                          ChartTextFit::textWidth(axis.labelsFont(), QString::asprintf("%.*f", decimals, k * interval)));
    return widest;
}

} // namespace

TimelineAxes::TimelineAxes(QChart *chart)
    : m_chart(chart), m_x(new QValueAxis), m_y(new QValueAxis), m_depth(new QValueAxis)
{
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    m_chart->addAxis(m_depth, Qt::AlignRight);
    for (QValueAxis *axis : {m_x, m_y, m_depth}) {
        axis->setTickType(QValueAxis::TicksDynamic);
        axis->setTickAnchor(0);
    }
    m_depth->setLabelFormat(QStringLiteral("%d"));
}

void TimelineAxes::setXTitles(QStringList wordings)
{
    m_xTitles = std::move(wordings);
    fitXText();
}

void TimelineAxes::setXText(bool labels, bool title)
{
    m_xLabels = labels;
    m_xTitled = title;
    fitXText();
}

void TimelineAxes::setValueRanges(double yMax, const QString &unit, double depthTop)
{
    m_yMax = yMax > 0 ? yMax : 1;
    m_unit = unit;
    m_depthTop = depthTop;
    fitValues();
}

void TimelineAxes::showX(double min, double max)
{
    const double interval = xTickInterval(min, max);
    setAxisTicks(m_x, min, max, interval);
    m_x->setLabelFormat(QStringLiteral("%.%1f").arg(xDecimals(interval)));
}

void TimelineAxes::fit()
{
    fitValues();
    fitXTicks();
    fitXText();
}

// Qt Charts elides a value axis's labels to "..." once ticks stand closer than a label is high
// (with its padding, measured over the chart's height rather than the plot's): the memory and
// nesting axes get as many ticks as both leave room for, and labels with the decimals the
// interval needs, no more.
void TimelineAxes::fitValues()
{
    if (!(m_yMax > 0))
        return;
    const qreal height = plotHeight();
    const qreal line = QFontMetricsF(m_y->labelsFont()).height();
    const int ticks = std::min(std::max(1, int(height / (1.6 * line))) + 1,
                               ChartTextFit::yTicksWithin(contentBottom(), m_y->labelsFont()));
    const double yInterval = niceTickIntervalForTicks(m_yMax, 5, ticks);
    if (m_y->max() != m_yMax || m_y->tickInterval() != yInterval) {
        setAxisTicks(m_y, 0, m_yMax, yInterval);
        m_y->setLabelFormat(QStringLiteral("%.%1f").arg(tickDecimals(yInterval)));
    }
    const double depthInterval = std::max(1.0, niceTickIntervalForTicks(m_depthTop, 5, ticks));
    if (m_depth->max() != m_depthTop || m_depth->tickInterval() != depthInterval)
        setAxisTicks(m_depth, 0, m_depthTop, depthInterval);
    fitValueText(m_y, {QStringLiteral("memory (%1)").arg(m_unit), m_unit}, tickDecimals(yInterval), height);
    fitValueText(m_depth, {QStringLiteral("remat nesting"), QStringLiteral("nesting")}, 0, height);
}

// Qt Charts gives the two vertical axes at most 0.4 of the chart's width and elides a title
// longer than the plot is high: an axis shows its title, in the longest wording no longer than
// the plot, where its labels leave room for one; an axis too narrow even for its labels (a
// very small figure) leaves them out too.
void TimelineAxes::fitValueText(QValueAxis *axis, const QStringList &wordings, int decimals, double height)
{
    const qreal widest = widestLabel(*axis, 0, axis->max(), axis->tickInterval(), decimals);
    const qreal share =
        ChartTextFit::yAxisShare(m_chart->size().width() - m_chart->margins().left() - m_chart->margins().right());
    const QFont font = axis->titleFont();
    const bool labelled = ChartTextFit::yAxisWidth(widest, nullptr) <= share;
    QString title;
    for (const QString &wording : wordings)
        if (title.isEmpty() && labelled && ChartTextFit::yAxisWidth(widest, &font) <= share &&
            ChartTextFit::textWidth(font, wording) <= height)
            title = wording;
    if (axis->labelsVisible() != labelled)
        axis->setLabelsVisible(labelled);
    if (axis->titleText() != title)
        axis->setTitleText(title);
}

// Qt Charts gives each x label the axis width over the tick count and elides a wider one to
// "...": ticks stand as far apart as the widest label needs, with half a line between labels,
// bounded by the plot's width in points as the strip's ratio axis is.
double TimelineAxes::xTickInterval(double min, double max) const
{
    const double span = max - min;
    const QFont font = m_x->labelsFont();
    const qreal line = QFontMetricsF(font).height();
    const QRectF area = m_chart->plotArea();
    const qreal width = area.width() > 0 ? area.width() : m_chart->size().width() - 6 * line;
    double interval = niceTickInterval(span, 6);
    for (int most = 12; most >= 1; --most) {
        interval = niceTickIntervalWithin(span, 6, most);
        const int ticks = int(std::floor(max / interval + 1e-9) - std::ceil(min / interval - 1e-9)) + 1;
        const qreal widest = widestLabel(*m_x, min, max, interval, xDecimals(interval));
        if (ChartTextFit::xLabelsFit(widest, ticks, width, 0.5 * line))
            return interval;
    }
    return interval;
}

// The plot's width known at last (or changed): the x ticks fit it.
void TimelineAxes::fitXTicks()
{
    const double interval = xTickInterval(m_x->min(), m_x->max());
    if (interval == m_x->tickInterval())
        return;
    setAxisTicks(m_x, m_x->min(), m_x->max(), interval);
    m_x->setLabelFormat(QStringLiteral("%.%1f").arg(xDecimals(interval)));
}

// Qt Charts squeezes x axes taller than 0.4 of the chart and then elides their title and
// labels to "...": a chart too short for them leaves out the title, then the labels; a title
// wider than the plot takes its shorter wording.
void TimelineAxes::fitXText()
{
    const QFont labels = m_x->labelsFont();
    const QFont title = m_x->titleFont();
    const qreal content = contentHeight();
    const bool labelled = m_xLabels && ChartTextFit::xAxisFits(ChartTextFit::xAxisHeight(labels, nullptr), content);
    const bool titled =
        labelled && m_xTitled && ChartTextFit::xAxisFits(ChartTextFit::xAxisHeight(labels, &title), content);
    // A wider title widens the room Qt Charts keeps beside the plot for the axis's ends: a
    // wording wider than the one shown must fit a plot narrower by the difference.
    QString text;
    const qreal width = m_chart->plotArea().width() > 0 ? m_chart->plotArea().width() : m_chart->size().width();
    const qreal shown = m_x->titleText().isEmpty() ? 0 : ChartTextFit::textWidth(title, m_x->titleText());
    for (const QString &wording : m_xTitles) {
        const qreal needed = ChartTextFit::textWidth(title, wording);
        if (titled && text.isEmpty() && needed + std::max<qreal>(needed - shown, 0) <= width)
            text = wording;
    }
    if (m_x->labelsVisible() != labelled)
        m_x->setLabelsVisible(labelled);
    if (m_x->titleText() != text)
        m_x->setTitleText(text);
}

// Before the first layout the plot is the chart less the x axis's labels and title and the
// legend.
qreal TimelineAxes::plotHeight() const
{
    const QRectF area = m_chart->plotArea();
    return area.height() > 0 ? area.height() : contentHeight() - 3.5 * QFontMetricsF(m_y->labelsFont()).height();
}

// The chart less its margins (the legend's rows or the key are in the top one).
qreal TimelineAxes::contentHeight() const
{
    return contentBottom() - m_chart->margins().top();
}

qreal TimelineAxes::contentBottom() const
{
    return m_chart->size().height() - m_chart->margins().bottom();
}

} // namespace rematlens
