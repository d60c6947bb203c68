#pragma once

#include "views/common/zoom_window.h"
#include "views/figure/figure_source.h"
#include "views/timeline/timeline_chart.h"
#include "views/timeline/timeline_figure.h"
#include "views/common/key_binding.h"
#include "core/trace/capture_side_file.h"

#include <QChartView>

#include <memory>

namespace rematlens {

// The memory timeline of the selected run, optionally over a second budget. Wheel or +/-
// zooms at the cursor, dragging zooms to a range, the arrow keys pan, 0 or a double click
// resets; hovering names the step, operator, tensor and bytes under the cursor.
class TimelineView : public QChartView, public FigureSource {
    Q_OBJECT

public:
    explicit TimelineView(QWidget *parent = nullptr);
    ~TimelineView() override;

    // Builds the plot of these runs here (small runs, tests); the window builds it off the GUI
    // thread and hands it to setPlot.
    void setRuns(std::shared_ptr<const Program> program, std::shared_ptr<const InspectedRun> run,
                 std::shared_ptr<const InspectedRun> comparison);
    void setPlot(std::shared_ptr<const TimelinePlot> plot);
    // Draws the runs shown against another x (building their plot again here).
    void setAxis(TimelineAxis axis);
    TimelineAxis axis() const { return m_axis; }
    const TimelinePlot &plot() const { return m_figure.plot(); }
    const ZoomWindow &window() const { return m_window; }
    void showRange(double from, double to);
    void resetZoom();
    // Draws the same runs again (the byte units changed), keeping the zoom.
    void refresh();
    // Centres the view on a model step, keeping the zoom (or zooming in when showing all).
    void showStep(std::uint32_t step);
    QString hoverText(double x, double tolerance) const;
    // What hovering this point of the viewport shows (empty off the plot).
    QString hoverTextAt(const QPointF &viewportPos) const;
    // Marks a model step with a thin vertical line (the step the memory map shows), across
    // runs and axes until cleared; none clears it.
    void markStep(std::optional<std::uint32_t> step);
    std::optional<std::uint32_t> markedStep() const { return m_markedStep; }
    const TimelineChart &chartContent() const { return *m_chartContent; }
    // The keys and gestures the chart answers, for the help's shortcut table.
    static KeyBindings keyBindings();
    // Shapes and roles of a captured trace's tensors, named on hover (null: none known).
    void setSideFile(std::shared_ptr<const CaptureSideFile> sideFile);

    void paintFigure(QPainter &painter, const QRectF &bounds, const FigureStyle &style) const override;
    QString figureCsv() const override;
    QString figureTitle() const override;

    // The model step of the sample nearest to x (none when nothing is shown).
    std::optional<std::uint32_t> stepAt(double x) const;

signals:
    void rangeChanged(double from, double to);
    // A click (not a drag) in the plot: the memory map shows the step under it.
    void stepClicked(std::uint32_t step);

protected:
    bool viewportEvent(QEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void redraw();
    void placeMarkedStep();
    void followAxis(qreal from, qreal to);
    double xAt(const QPointF &widgetPos) const;
    double pixelWidthInX() const;

    QString shapeLine(TensorId tensor) const;

    std::shared_ptr<const CaptureSideFile> m_sideFile;
    TimelineAxis m_axis = TimelineAxis::Step;
    TimelineFigure m_figure{TimelinePlot{}};
    std::unique_ptr<TimelineChart> m_chartContent;
    ZoomWindow m_window;
    std::optional<std::uint32_t> m_markedStep;
    bool m_redrawing = false;
    QPointF m_pressedAt;
};

} // namespace rematlens
