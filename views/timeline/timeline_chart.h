#pragma once

#include "views/common/byte_scale.h"
#include "views/figure/figure_style.h"
#include "views/timeline/timeline_plot.h"

#include <QList>
#include <QPointF>

class QAreaSeries;
class QChart;
class QGraphicsSimpleTextItem;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace rematlens {
class SpanBandItem;
}

namespace rematlens {

// The one class that speaks Qt Charts for the memory timeline: memory in use, locked bytes,
// the budget, evictions as markers, rematerialization as shaded spans, nesting depth on a
// right axis, an overlaid second budget with the divergence, and the failing allocation.
// It fills a QChart it does not own, for the screen and for figures alike.
class TimelineChart {
public:
    TimelineChart(QChart *chart, const FigureStyle &style);

    void setPlot(const TimelinePlot *plot); // not owned; null clears
    void setCompactLegend(bool compact);
    // Redraws [from, to] decimated for `columns` pixel columns.
    void showRange(double from, double to, int columns);
    QLineSeries *memorySeries() const { return m_memory; }
    QValueAxis *xAxis() const { return m_x; }
    // The x axis counts data x (steps or clock) in units of a power of 1000.
    double dataX(double axisX) const { return axisX * m_xDivisor; }
    const ByteScale &scale() const { return m_scale; }

private:
    double ax(double dataX) const { return dataX / m_xDivisor; }
    void chooseXScale(bool byStep);
    void fitNesting();
    void createSeries();
    void styleChart();
    void fillMemory(double from, double to, int columns);
    void fillEvents(double from, double to, int columns);
    void fillMarkers();
    void updateLabels();
    QList<QPointF> stepped(const TimelineTrack &track, const std::vector<double> &ys, double from, double to,
                           int columns, bool inBytes) const;

    QChart *m_chart;
    FigureStyle m_style;
    const TimelinePlot *m_plot = nullptr;
    ByteScale m_scale;
    double m_xDivisor = 1;
    std::vector<double> m_nesting; // the run's depth less the model's own call
    QValueAxis *m_x = nullptr;
    QValueAxis *m_y = nullptr;
    QValueAxis *m_depthAxis = nullptr;
    QLineSeries *m_rematUpper = nullptr;
    QAreaSeries *m_remat = nullptr;
    SpanBandItem *m_rematBand = nullptr;
    QLineSeries *m_lockedUpper = nullptr;
    QAreaSeries *m_locked = nullptr;
    QLineSeries *m_memory = nullptr;
    QLineSeries *m_comparison = nullptr;
    QLineSeries *m_budget = nullptr;
    QLineSeries *m_depth = nullptr;
    QScatterSeries *m_evictions = nullptr;
    QLineSeries *m_divergence = nullptr;
    QLineSeries *m_failure = nullptr;
    QScatterSeries *m_failureMark = nullptr;
    QGraphicsSimpleTextItem *m_failureLabel = nullptr;
    QGraphicsSimpleTextItem *m_divergenceLabel = nullptr;
};

} // namespace rematlens
