#pragma once

#include "views/figure/figure_source.h"

#include <QSizeF>
#include <QWidget>

namespace rematlens {

// A figure as it will come out: the source's own paint code at the chosen size and style,
// scaled to fit the widget, on a grey desk so the page's edges show.
class FigurePreview : public QWidget {
    Q_OBJECT

public:
    explicit FigurePreview(QWidget *parent = nullptr);

    void setSource(const FigureSource *source);
    void setFigure(const QSizeF &inches, const FigureStyle &style);
    // The page inside the widget and the scale from points to pixels.
    QRectF pageRect() const;
    double scale() const;

    QSize sizeHint() const override { return {640, 300}; }
    QSize minimumSizeHint() const override { return {240, 120}; }

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    const FigureSource *m_source = nullptr;
    QSizeF m_inches{6.75, 2.5};
    FigureStyle m_style;
};

} // namespace rematlens
