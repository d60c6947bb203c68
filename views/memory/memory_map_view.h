#pragma once

#include "views/figure/figure_source.h"
#include "views/memory/memory_map_figure.h"

#include <QWidget>

namespace rematlens {

// The memory map dock's drawing: the selected run's allocator layout at one step. Hovering a
// block names its tensor, size and address. It paints what it is given and never replays.
class MemoryMapView : public QWidget, public FigureSource {
    Q_OBJECT

public:
    explicit MemoryMapView(QWidget *parent = nullptr);

    void setPlot(std::shared_ptr<const MemoryMapPlot> plot);
    // Shown instead of a map ("Select a run", "Replaying to step 812…").
    void showMessage(const QString &message);
    const MemoryMapFigure &figure() const { return m_figure; }
    const QString &message() const { return m_message; }
    // What hovering this point shows; empty over no block.
    QString hoverText(const QPointF &point) const;
    // The layout as painted at the view's current size.
    std::optional<MemoryMapLayout> layout() const;

    void paintFigure(QPainter &painter, const QRectF &bounds, const FigureStyle &style) const override;
    QString figureCsv() const override;
    QString figureTitle() const override;
    QSize sizeHint() const override { return QSize(480, 220); }

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;

private:
    FigureStyle screenStyle() const;

    MemoryMapFigure m_figure;
    QString m_message;
};

} // namespace rematlens
