#pragma once

#include "views/figure/figure_style.h"
#include "views/strip/strip_geometry.h"

#include <QFontMetricsF>
#include <QString>
#include <QStringList>

class QPainter;

namespace rematlens {

class ExactMapModel;
class HoleListModel;
class ScheduleRowsModel;
class SweepResultModel;
struct MappedRow;

// Paints one feasibility strip panel (the overhead plot, one row of cells per policy, holes
// hatched, outlined and marked, the axes) in any unit: pixels on screen, points in figures.
// Every size comes from the style's font, so a figure at 8 pt and the screen look alike.
// A row with an exact map draws its intervals at their byte bounds instead of grid cells
// (unmapped budgets cross-hatched, holes at their exact bounds).
class StripPainter {
public:
    struct Parts {
        QString title;             // above the panel (a trace name); empty: none
        bool bytesAxis = true;     // the budget in bytes along the top
        bool leftLabels = true;    // policy names, overhead ticks and the overhead title
        bool xAxisTitle = true;    // the budget title under the ratio ticks
        double overheadTop = 0;    // top of the overhead axis; 0: what this sweep needs
        QStringList policyColours; // colour i for the policy named i-th; else by row
        double viewFrom = 0;       // the columns shown, [viewFrom, viewTo); empty: all
        double viewTo = 0;
    };

    StripPainter(const SweepResultModel &sweep, const HoleListModel *holes, const FigureStyle &style,
                 const ExactMapModel *maps = nullptr, const ScheduleRowsModel *schedules = nullptr);

    // The exact map drawn in this row, if any.
    const MappedRow *mappedRow(int row) const;

    StripGeometry layout(const QRectF &bounds, const Parts &parts) const;
    void paint(QPainter &p, const QRectF &bounds, const Parts &parts) const;

    // The overhead axis's top: the compute limit, or a bit above the highest overhead when the
    // limit is too large to show.
    double overheadTop() const;
    // Room the left labels need (policy names, overhead ticks, the rotated title).
    double leftLabelWidth() const;
    // Room the panel needs below and above its parts, so figures can size themselves.
    double minimumHeight(const Parts &parts) const;
    // "memory budget (fraction of the baseline peak memory, 8.80 GB)", shorter when narrow.
    QString xAxisTitle(bool bytesAbove, double width) const;

private:
    double lineHeight() const { return m_metrics.height(); }
    double markerSize() const { return 0.55 * lineHeight(); }
    double rowHeight(const StripGeometry &g) const;
    static void clipToColumnsShown(QPainter &p, const StripGeometry &g);
    // The part of r within the columns shown (a little past them when not zoomed).
    static QRectF shownPart(const StripGeometry &g, const QRectF &r);
    double overheadOf(std::size_t policy, std::size_t column) const; // 0 when not a pass
    void paintCells(QPainter &p, const StripGeometry &g, const Parts &parts) const;
    void paintScheduleRows(QPainter &p, const StripGeometry &g, const Parts &parts) const;
    void paintRowLabel(QPainter &p, const StripGeometry &g, int row, const QString &label) const;
    void paintHoles(QPainter &p, const StripGeometry &g) const;
    void paintMappedRow(QPainter &p, const StripGeometry &g, int row, const MappedRow &mapped) const;
    void paintIntervalEdges(QPainter &p, const StripGeometry &g, const QRectF &rowCells, const MappedRow &mapped) const;
    void paintExactHoles(QPainter &p, const StripGeometry &g, int row, const MappedRow &mapped) const;
    void paintHoleMarker(QPainter &p, const QRectF &span) const;
    void paintByteAxis(QPainter &p, const StripGeometry &g) const;
    void paintPlot(QPainter &p, const StripGeometry &g, const Parts &parts) const;
    void paintCurves(QPainter &p, const StripGeometry &g, const Parts &parts, double top) const;
    double ratioTickStep(double first, double last, double span, double memory) const;
    void paintRatioAxis(QPainter &p, const StripGeometry &g, const Parts &parts) const;
    void paintTitle(QPainter &p, const StripGeometry &g, const Parts &parts) const;

    const SweepResultModel &m_sweep;
    const HoleListModel *m_holes;
    const ExactMapModel *m_maps;
    const ScheduleRowsModel *m_schedules;
    FigureStyle m_style;
    QFont m_font;
    QFontMetricsF m_metrics;
};

} // namespace rematlens
