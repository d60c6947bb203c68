#pragma once

#include "views/cascade/cascade_diagram.h"
#include "views/figure/figure_source.h"

#include <QWidget>

#include <cstdint>
#include <optional>

namespace rematlens {

// The cascade of the selected run as a widget: boxes for rematerializations, evictions and the
// failing allocation, arrows for what caused what. Clicking a box announces its moment (the
// timeline follows); clicking a folded crowd unfolds it; the context menu offers to keep a
// tensor resident and rerun. It paints what it is given and never runs the simulator.
class CascadeView : public QWidget, public FigureSource {
    Q_OBJECT

public:
    explicit CascadeView(QWidget *parent = nullptr);

    void setDiagram(CascadeDiagram diagram);
    // Shown instead of a diagram (e.g. "Replaying..." or "Select a run").
    void showMessage(const QString &message);
    const CascadeDiagram &diagram() const { return m_diagram; }
    void setFigureStyle(const FigureStyle &style);

    void paintFigure(QPainter &painter, const QRectF &bounds, const FigureStyle &style) const override;
    QString figureCsv() const override;
    QString figureTitle() const override;

    QSize sizeHint() const override;
    // What a click at this point does (tests and mouse handling share it).
    void activateAt(const QPointF &point);

signals:
    void momentActivated(std::uint32_t step, Cost clock);
    void keepResidentRequested(TensorId tensor);
    // Rebuild the cascade around this event (an index into the run's recording): its causes.
    void causesRequested(std::size_t event);

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;

private:
    void updateSize();
    void changed();
    const CascadeDiagram &diagramAt(qreal fontSize) const;

    CascadeDiagram m_diagram;
    // The diagram laid out again at a figure's text size, kept while the preview repaints.
    mutable std::optional<CascadeDiagram> m_figureDiagram;
    QString m_message;
    FigureStyle m_style;
};

} // namespace rematlens
