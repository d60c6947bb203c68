#pragma once

#include "views/figure/figure_style.h"
#include "views/timeline/timeline_plot.h"

#include <QGraphicsScene>
#include <QPointF>
#include <QRectF>

#include <memory>

class QChart;
class QPainter;

namespace rematlens {

class TimelineChart;

// One run of a hole's anatomy: its timeline chart in a scene of its own, laid out at a size
// before it is drawn, so that two can be stacked with their plots one above the other. The
// upper one carries the legend; the lower one labels the step axis they share.
class AnatomyChart {
public:
    enum class Place { Upper, Lower };

    AnatomyChart(const TimelinePlot &plot, const FigureStyle &style, Place place);
    ~AnatomyChart();
    AnatomyChart(const AnatomyChart &) = delete;
    AnatomyChart &operator=(const AnatomyChart &) = delete;

    // Lays the chart out `width` by `height` points over steps [0, extent], the chart set in by
    // `indentLeft` and `indentRight` from the scene's sides.
    void layOut(qreal width, qreal height, qreal indentLeft, qreal indentRight, double extent);
    qreal height() const { return m_height; }
    QRectF plotArea() const; // in the scene
    // Room beside the plot that the axes take, and above and below it that the chart takes.
    qreal axesLeft() const { return plotArea().left() - m_indentLeft; }
    qreal axesRight() const { return m_width - m_indentRight - plotArea().right(); }
    qreal outside() const { return m_height - plotArea().height(); }
    // Where a model step meets the plot's bottom, in the scene.
    QPointF atStep(double step) const;
    std::optional<QRectF> failureLabelRect() const; // in the scene
    void render(QPainter &painter, const QPointF &topLeft);

private:
    QGraphicsScene m_scene;
    QChart *m_chart; // owned by the scene
    std::unique_ptr<TimelineChart> m_timeline;
    qreal m_width = 0;
    qreal m_height = 0;
    qreal m_indentLeft = 0;
    qreal m_indentRight = 0;
};

} // namespace rematlens
