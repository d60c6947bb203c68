#pragma once

#include "views/figure/figure_source.h"
#include "views/timeline/timeline_plot.h"

#include <memory>
#include <optional>

namespace rematlens {

// The memory timeline as a figure: a fresh chart drawn by TimelineChart at the figure's size
// and style, over the whole run or the range the view shows.
class TimelineFigure : public FigureSource {
public:
    explicit TimelineFigure(TimelinePlot plot);
    // A plot built elsewhere (off the GUI thread), shared rather than copied.
    explicit TimelineFigure(std::shared_ptr<const TimelinePlot> plot);

    const TimelinePlot &plot() const { return *m_plot; }
    const std::shared_ptr<const TimelinePlot> &sharedPlot() const { return m_plot; }
    void setRange(std::optional<std::pair<double, double>> range) { m_range = range; }

    void paintFigure(QPainter &painter, const QRectF &bounds, const FigureStyle &style) const override;
    QString figureCsv() const override;
    QString figureTitle() const override;

private:
    std::shared_ptr<const TimelinePlot> m_plot; // never null
    std::optional<std::pair<double, double>> m_range;
};

} // namespace rematlens
