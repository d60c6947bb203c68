#pragma once

#include "views/figure/figure_style.h"

#include <QRectF>
#include <QString>

class QPainter;

namespace rematlens {

// A view that can be drawn as a figure: the same paint code for the screen, PNG, SVG and PDF,
// and the numbers behind the drawing as CSV.
class FigureSource {
public:
    virtual ~FigureSource() = default;
    // Paints into `bounds`, in points.
    virtual void paintFigure(QPainter &painter, const QRectF &bounds, const FigureStyle &style) const = 0;
    virtual QString figureCsv() const = 0;
    virtual QString figureTitle() const = 0; // for file names and dialogs
};

} // namespace rematlens
