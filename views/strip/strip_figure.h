#pragma once

#include "views/figure/figure_source.h"
#include "views/strip/strip_legend.h"
#include "views/strip/strip_painter.h"

#include <vector>

namespace rematlens {

class ExactMapModel;
class HoleListModel;
class ScheduleRowsModel;
class SweepResultModel;

// Feasibility strips as a figure: one panel per trace in a grid (small multiples, titled by
// trace, overhead axes shared, policy names and overhead ticks on the left column only), one
// budget title and one legend for all. With one panel it is the strip of the main window, with
// the budget in bytes along the top.
class StripFigure : public FigureSource {
public:
    struct Panel {
        QString title; // the trace's name
        const SweepResultModel *sweep = nullptr;
        const HoleListModel *holes = nullptr;
        double viewFrom = 0; // the columns shown, [viewFrom, viewTo); empty: all
        double viewTo = 0;
        const ExactMapModel *maps = nullptr; // rows with an exact map draw its intervals
        const ScheduleRowsModel *schedules = nullptr; // rows of static schedules under the policies
    };

    explicit StripFigure(std::vector<Panel> panels);

    void paintFigure(QPainter &painter, const QRectF &bounds, const FigureStyle &style) const override;
    QString figureCsv() const override;
    QString figureTitle() const override;

    // Where panel `index` puts its cells, for the widget's clicks and marks.
    StripGeometry panelGeometry(const QRectF &bounds, const FigureStyle &style, std::size_t index) const;
    // Panels per row in a figure this wide (painter units): up to four, none narrower than
    // about ten lines of text wide.
    int gridColumns(double width, const FigureStyle &style) const;
    int gridRows(double width, const FigureStyle &style) const;
    std::size_t panelCount() const { return m_panels.size(); }
    // The one legend: every outcome, policy line and schedule state the panels can show, so
    // it keeps its entries and its place while results arrive.
    StripLegend legend(const FigureStyle &style) const;

private:
    struct Layout {
        std::vector<QRectF> panels;
        QRectF xTitle; // shared by small multiples
        QRectF legend;
        int columns = 1;
    };
    Layout layout(const QRectF &bounds, const FigureStyle &style) const;
    bool hasRuns(const Panel &panel) const;
    StripPainter::Parts partsFor(std::size_t index, int columns) const;
    double sharedOverheadTop(const FigureStyle &style) const;
    std::vector<Outcome> outcomesShown() const;
    QStringList policyNames() const;
    bool hasUnmapped() const;
    std::vector<StripLegend::Swatch> scheduleSwatches() const;
    static QString scheduleCsv(const Panel &panel);
    QString sharedXTitle(double width, const FigureStyle &style) const;

    std::vector<Panel> m_panels;
};

} // namespace rematlens
