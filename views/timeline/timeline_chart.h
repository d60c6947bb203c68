#pragma once

#include "views/common/byte_scale.h"
#include "views/figure/figure_style.h"
#include "views/timeline/timeline_plot.h"

#include <QLineF>
#include <QList>
#include <QPointF>
#include <QRectF>
#include <QStringList>

#include <memory>
#include <optional>

class QAreaSeries;
class QChart;
class QGraphicsLineItem;
class QGraphicsPolygonItem;
class QGraphicsRectItem;
class QGraphicsSimpleTextItem;
class QGraphicsTextItem;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace rematlens {
class ChartLegendRows;
class SpanBandItem;
class TimelineAxes;
}

namespace rematlens {

// The one class that speaks Qt Charts for the memory timeline: memory in use, locked bytes,
// the budget, evictions as markers, rematerialization as shaded spans, nesting depth on a
// right axis, an overlaid second budget with the divergence, and the failing allocation.
// It fills a QChart it does not own, for the screen and for figures alike.
class TimelineChart {
public:
    // Which lines are which: the legend's rows of swatches and names (the window, a wide figure),
    // a few words above the plot (a narrow figure), or nothing (a figure that says it once for
    // several charts).
    enum class LegendStyle { Rows, Compact, None };

    TimelineChart(QChart *chart, const FigureStyle &style);
    ~TimelineChart();
    TimelineChart(const TimelineChart &) = delete;
    TimelineChart &operator=(const TimelineChart &) = delete;

    void setPlot(const TimelinePlot *plot); // not owned; null clears
    void setLegendStyle(LegendStyle style);
    // Whether the legend gives the runs' budgets; a figure that heads each chart with its run
    // leaves them out.
    void setRunsNamed(bool named);
    // Which of the x axis's texts the chart may show (as far as its height leaves room): a chart
    // stacked over another that labels the same axis shows neither, keeping ticks and grid.
    void setXAxisText(bool labels, bool title);
    // Redraws [from, to] decimated for `columns` pixel columns.
    void showRange(double from, double to, int columns);
    QLineSeries *memorySeries() const { return m_memory; }
    QLineSeries *reservedSeries() const { return m_reserved; }
    QLineSeries *allocatedSeries() const { return m_allocated; }
    QAreaSeries *fragmentationSeries() const { return m_fragmentation; }
    QValueAxis *xAxis() const { return m_x; }
    // A thin vertical line at data x (the step the memory map shows); none clears it.
    void setMarkedX(std::optional<double> dataX);
    // Lays a chart out at once (a figure does not wait for the event loop), again while the
    // texts fitted to one layout ask for another.
    void settle();
    // Where the marker, the failure's label and the legend are drawn, in the chart's coordinates.
    std::optional<QLineF> markerLine() const;
    std::optional<QRectF> failureLabelRect() const;
    const ChartLegendRows &legend() const { return *m_legend; }
    // The x axis counts data x (steps or clock) in units of a power of 1000.
    double dataX(double axisX) const { return axisX * m_xDivisor; }
    const ByteScale &scale() const { return m_scale; }
    // A stepped boundary with only the first and last point of each pixel column: an area
    // filled under it is the same shape, at a fraction of the rasterizer's work.
    static QList<QPointF> areaBoundary(const QList<QPointF> &stepped);

private:
    double ax(double dataX) const { return dataX / m_xDivisor; }
    void chooseXScale(bool byStep);
    void fitNesting();
    void nameSeries();
    static QString runName(const InspectedRun &run, const InspectedRun &other, const QString &role);
    QStringList compactKey() const;
    void createSeries();
    void styleChart();
    void fillMemory(double from, double to, int columns);
    void fillEvents(double from, double to, int columns);
    void showComparison(bool shown);
    void showAllocation(bool shown);
    void fillAllocation(double from, double to, int columns);
    void styleComparison();
    std::optional<QPointF> scenePoint(double dataX, double y) const;
    const TimelineTrack *failedTrack() const;
    static QString failureText(const Failure &failure);
    // The failing allocation, the divergence and their labels, placed in the chart's scene.
    void updateLabels();
    void placeLabel(QGraphicsSimpleTextItem *label, QPointF at, const QString &text) const;
    void placeMarker();
    // The legend's rows for the chart's width; the plot starts under them.
    void layOutLegend();
    QList<QPointF> stepped(const TimelineTrack &track, const std::vector<double> &ys, double from, double to,
                           int columns, bool inBytes) const;

    QChart *m_chart;
    FigureStyle m_style;
    const TimelinePlot *m_plot = nullptr;
    LegendStyle m_legendStyle = LegendStyle::Rows;
    bool m_runsNamed = true;
    std::optional<double> m_markedX;
    ByteScale m_scale;
    double m_xDivisor = 1;
    std::vector<double> m_nesting; // the run's depth less the model's own call
    int m_depthMax = 2; // nesting shown below 80% of the right axis
    std::unique_ptr<TimelineAxes> m_axes;
    QValueAxis *m_x = nullptr; // the axes', owned by the chart
    QValueAxis *m_y = nullptr;
    QValueAxis *m_depthAxis = nullptr;
    QLineSeries *m_rematUpper = nullptr;
    QAreaSeries *m_remat = nullptr;
    SpanBandItem *m_rematBand = nullptr;
    QLineSeries *m_lockedUpper = nullptr;
    QAreaSeries *m_locked = nullptr;
    QLineSeries *m_memory = nullptr;
    QLineSeries *m_comparison = nullptr;
    // Under an allocator model only: in the chart (and its legend) while the run has them.
    QLineSeries *m_reserved = nullptr;
    QLineSeries *m_allocated = nullptr;
    QLineSeries *m_fragmentationUpper = nullptr;
    QLineSeries *m_fragmentationLower = nullptr;
    QAreaSeries *m_fragmentation = nullptr;
    QLineSeries *m_budget = nullptr;
    QLineSeries *m_depth = nullptr;
    QScatterSeries *m_evictions = nullptr;
    ChartLegendRows *m_legend = nullptr;
    QGraphicsTextItem *m_key = nullptr; // the compact legend
    QGraphicsLineItem *m_marker = nullptr;
    QGraphicsPolygonItem *m_markerHead = nullptr;
    QGraphicsLineItem *m_divergence = nullptr;
    QGraphicsLineItem *m_failure = nullptr;
    QGraphicsRectItem *m_failureMark = nullptr;
    QGraphicsSimpleTextItem *m_failureLabel = nullptr;
    QGraphicsSimpleTextItem *m_divergenceLabel = nullptr;
};

} // namespace rematlens
