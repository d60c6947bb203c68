#pragma once

#include "views/common/layer_cache.h"
#include "views/common/zoom_window.h"
#include "views/figure/figure_source.h"
#include "views/strip/strip_figure.h"
#include "views/strip/strip_geometry.h"
#include "views/common/key_binding.h"

#include "core/sim/budget_interval.h"
#include "core/sim/run_result.h"

#include <QTimer>
#include <QWidget>

#include <optional>

namespace rematlens {

class ExactMapModel;
class HoleListModel;
class RunSelection;
class ScheduleRowsModel;
class SweepResultModel;
struct MappedRow;

// The feasibility-versus-budget strip: budget ratio across (bytes on the top axis), one row of
// cells per policy coloured by outcome, the overhead of passing runs plotted above, holes
// marked. Click or the arrow keys select a run; the wheel (or +/-) zooms at the cursor, dragging
// pans, 0 shows every budget again; Shift+drag marks a range to refine. A row with an exact
// map draws its intervals at their byte bounds, zooms down to single bytes, and a click there
// selects an interval (the arrow keys step through them). As a figure it is a StripFigure of
// one panel, zoom included: the same paint code at the figure's style.
class FeasibilityStrip : public QWidget, public FigureSource {
    Q_OBJECT

public:
    struct Cell {
        std::size_t policy;
        std::size_t column;
        bool operator==(const Cell &) const = default;
    };

    explicit FeasibilityStrip(QWidget *parent = nullptr);

    // An interval of an exact map: its row and its lowest budget.
    struct Interval {
        std::size_t policy;
        Bytes lo;
        bool operator==(const Interval &) const = default;
    };

    void setModels(const SweepResultModel *sweep, const HoleListModel *holes);
    // The window's one selection: the strip draws the run it names and changes it on a click or
    // a key. Until one is set the strip has a selection of its own.
    void setRunSelection(RunSelection *selection);
    void setExactMaps(const ExactMapModel *maps);
    // Rows of static schedules (checkpointing, optimal) drawn under the policies.
    void setScheduleRows(const ScheduleRowsModel *schedules);
    // The selected interval and cell, found from the selection's identity (none when no row of
    // the strip is the selected run's configuration). A selected interval's cell is the grid
    // column under its lo, where the grid keys go on from.
    std::optional<Interval> selectedInterval() const;
    // Selects the interval of that row holding `budget`; false when the row has none there.
    bool selectInterval(std::size_t policy, Bytes budget);
    // The exact map drawn in a row, if any.
    const MappedRow *mappedRow(std::size_t policy) const;
    // What hovering at this point shows (empty: nothing), for the tooltip and its tests.
    QString tooltipAt(const QPoint &position) const;
    std::optional<Cell> selection() const;
    void setSelection(std::optional<Cell> cell);
    // The grid column whose ratio is nearest to `ratio`, in the selected (or first) row.
    void selectRatio(double ratio);
    std::optional<std::pair<std::size_t, std::size_t>> range() const { return m_range; }
    // The budgets shown, in grid columns (fractions allowed): all of them unless zoomed.
    const ZoomWindow &view() const { return m_view; }
    void showColumns(double from, double to);
    // The same in budget ratios (for sessions, which outlive a grid): none when not zoomed.
    std::optional<std::pair<double, double>> viewedRatios() const;
    void showRatios(double from, double to);
    // Shows the budgets from `from` to `to` bytes (zoomed down to a few bytes at most).
    void showBudgets(double from, double to);
    void resetZoom();

    // Paints the strip as on screen (the default style at the widget's font) into any device.
    void paint(QPainter &painter, const QRectF &bounds) const;
    // Where the cells are on screen.
    StripGeometry cellGeometry() const { return geometryFor(rect()); }
    // The legend's entries, as drawn under the strip.
    QStringList legendLabels() const { return asFigure().legend(screenStyle()).labels(); }
    // The trace's name, for figure titles and file names.
    void setTraceName(const QString &name);

    void paintFigure(QPainter &painter, const QRectF &bounds, const FigureStyle &style) const override;
    QString figureCsv() const override;
    QString figureTitle() const override;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    // The keys and gestures the strip answers, for the help's shortcut table.
    static KeyBindings keyBindings();

signals:
    void selectionChanged(std::size_t policy, std::size_t column);
    void intervalSelected(std::size_t policy, qint64 lo);
    void refineRequested(std::size_t firstColumn, std::size_t lastColumn);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    bool event(QEvent *event) override;
    void changeEvent(QEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;

private:
    StripGeometry geometryFor(const QRectF &bounds) const;
    void scheduleRepaint();
    void moveSelection(int dRow, int dColumn);
    void zoomAt(double factor, double column);
    void keepInView(std::size_t column);
    void resetView();
    QString tooltipFor(const Cell &cell) const;
    QString allocatorText(const RunResult &result) const;
    QString scheduleTooltip(std::size_t row, std::size_t column) const;
    bool moveInterval(int dRow, int steps);
    double zoomAnchor() const;
    void keepBudgetsInView(double from, double end);
    double minimumVisibleColumns() const;
    void paintIntervalMark(QPainter &p, const StripGeometry &g, const Interval &interval) const;
    StripFigure asFigure() const;
    FigureStyle screenStyle() const { return FigureStyle::screen(font()); }
    void paintMarks(QPainter &p, const StripGeometry &g) const;
    void figureChanged();

    const SweepResultModel *m_sweep = nullptr;
    const HoleListModel *m_holes = nullptr;
    const ExactMapModel *m_maps = nullptr;
    const ScheduleRowsModel *m_schedules = nullptr;
    RunSelection *m_runSelection = nullptr;
    std::optional<std::pair<std::size_t, std::size_t>> m_range;
    std::optional<std::size_t> m_dragStart;
    QPoint m_pressPosition;
    double m_pressViewFrom = 0;
    bool m_marking = false; // Shift held at the press: the drag marks a range instead of panning
    bool m_dragging = false;
    ZoomWindow m_view;
    QTimer m_repaintTimer;
    LayerCache m_figureLayer; // the figure under the selection and range marks
    QString m_traceName;
};

} // namespace rematlens
