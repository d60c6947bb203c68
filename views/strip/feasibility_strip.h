#pragma once

#include "views/figure/figure_source.h"
#include "views/strip/strip_figure.h"
#include "views/strip/strip_geometry.h"

#include <QTimer>
#include <QWidget>

#include <optional>

namespace rematlens {

class HoleListModel;
class SweepResultModel;

// The feasibility-versus-budget strip: budget ratio across (bytes on the top axis), one row of
// cells per policy coloured by outcome, the overhead of passing runs plotted above, holes
// marked. Click or the arrow keys select a run; dragging marks a range to refine. As a figure
// it is a StripFigure of one panel: the same paint code at the figure's style.
class FeasibilityStrip : public QWidget, public FigureSource {
    Q_OBJECT

public:
    struct Cell {
        std::size_t policy;
        std::size_t column;
        bool operator==(const Cell &) const = default;
    };

    explicit FeasibilityStrip(QWidget *parent = nullptr);

    void setModels(const SweepResultModel *sweep, const HoleListModel *holes);
    std::optional<Cell> selection() const { return m_selection; }
    void setSelection(std::optional<Cell> cell);
    // The grid column whose ratio is nearest to `ratio`, in the selected (or first) row.
    void selectRatio(double ratio);
    std::optional<std::pair<std::size_t, std::size_t>> range() const { return m_range; }

    // Paints the strip as on screen (the default style at the widget's font) into any device.
    void paint(QPainter &painter, const QRectF &bounds) const;
    // Where the cells are on screen.
    StripGeometry cellGeometry() const { return geometryFor(rect()); }
    // The trace's name, for figure titles and file names.
    void setTraceName(const QString &name) { m_traceName = name; }

    void paintFigure(QPainter &painter, const QRectF &bounds, const FigureStyle &style) const override;
    QString figureCsv() const override;
    QString figureTitle() const override;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void selectionChanged(std::size_t policy, std::size_t column);
    void refineRequested(std::size_t firstColumn, std::size_t lastColumn);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    bool event(QEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;

private:
    StripGeometry geometryFor(const QRectF &bounds) const;
    void scheduleRepaint();
    void moveSelection(int dRow, int dColumn);
    QString tooltipFor(const Cell &cell) const;
    StripFigure asFigure() const;
    FigureStyle screenStyle() const { return FigureStyle::screen(font()); }
    void paintMarks(QPainter &p, const StripGeometry &g) const;

    const SweepResultModel *m_sweep = nullptr;
    const HoleListModel *m_holes = nullptr;
    std::optional<Cell> m_selection;
    std::optional<std::pair<std::size_t, std::size_t>> m_range;
    std::optional<std::size_t> m_dragStart;
    QPoint m_pressPosition;
    bool m_dragging = false;
    QTimer m_repaintTimer;
    QString m_traceName;
};

} // namespace rematlens
