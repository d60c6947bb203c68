#pragma once

#include "views/figure/figure_source.h"
#include "views/timeline/timeline_plot.h"

#include <optional>

namespace rematlens {

// The memory timeline as a figure: a fresh chart drawn by TimelineChart at the figure's size
// and style, over the whole run or the range the view shows.
class TimelineFigure : public FigureSource {
public:
    explicit TimelineFigure(TimelinePlot plot);

    const TimelinePlot &plot() const { return m_plot; }
    void setRange(std::optional<std::pair<double, double>> range) { m_range = range; }

    void paintFigure(QPainter &painter, const QRectF &bounds, const FigureStyle &style) const override;
    QString figureCsv() const override;
    QString figureTitle() const override;

private:
    TimelinePlot m_plot;
    std::optional<std::pair<double, double>> m_range;
};

} // namespace rematlens
