#pragma once

#include "views/figure/figure_style.h"

#include <QRectF>

class QPainter;

namespace rematlens {

// How budgets an exact map has not classified look, in the strip and its legend: light grey
// cross-hatched, unlike any outcome and unlike a hole's single hatching, so a gap left by a
// cancelled or stopped walk is never read as a result.
class UnmappedMark {
public:
    static void paint(QPainter &p, const QRectF &span, const FigureStyle &style);
};

} // namespace rematlens
