#include "views/timeline/anatomy_chart.h"

#include "views/timeline/timeline_chart.h"

#include <QChart>
#include <QLineSeries>
#include <QPainter>

namespace rematlens {

AnatomyChart::AnatomyChart(const TimelinePlot &plot, const FigureStyle &style, Place place) : m_chart(new QChart)
{
    m_scene.addItem(m_chart);
    m_timeline = std::make_unique<TimelineChart>(m_chart, style);
    m_timeline->setPlot(&plot);
    const bool upper = place == Place::Upper;
    m_timeline->setRunsNamed(false); // the figure heads each chart with its run's budget
    m_timeline->setLegendStyle(upper ? TimelineChart::LegendStyle::Rows : TimelineChart::LegendStyle::None);
    // The figure writes the step axis's title under the lower chart, outside the room Qt Charts
    // shares between an axis's labels and its title.
    m_timeline->setXAxisText(!upper, false);
}

AnatomyChart::~AnatomyChart() = default;

void AnatomyChart::layOut(qreal width, qreal height, qreal indentLeft, qreal indentRight, double extent)
{
    m_width = width;
    m_height = height;
    m_indentLeft = indentLeft;
    m_indentRight = indentRight;
    m_chart->setGeometry(QRectF(indentLeft, 0, std::max<qreal>(width - indentLeft - indentRight, 1), height));
    m_timeline->settle();
    // Two columns per point, as the timeline figure draws.
    m_timeline->showRange(0, extent, int(m_chart->plotArea().width() * 2));
    m_timeline->settle();
}

QRectF AnatomyChart::plotArea() const
{
    return m_chart->mapRectToScene(m_chart->plotArea());
}

QPointF AnatomyChart::atStep(double step) const
{
    const QPointF inChart =
        m_chart->mapToPosition(QPointF(step / m_timeline->dataX(1.0), 0), m_timeline->memorySeries());
    return m_chart->mapToScene(inChart);
}

std::optional<QRectF> AnatomyChart::failureLabelRect() const
{
    const std::optional<QRectF> rect = m_timeline->failureLabelRect();
    return rect ? std::optional(m_chart->mapRectToScene(*rect)) : std::nullopt;
}

void AnatomyChart::render(QPainter &painter, const QPointF &topLeft)
{
    const QRectF whole(0, 0, m_width, m_height);
    m_scene.setSceneRect(whole);
    m_scene.render(&painter, whole.translated(topLeft), whole);
}

} // namespace rematlens
