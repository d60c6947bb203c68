#pragma once

#include "views/figure/figure_style.h"

#include <QRectF>

class QPainter;

namespace rematlens {

// How a feasibility hole looks, in the strip and in its legend: the failing cells hatched
// (dark lines on light colours, light on dark) and outlined.
class HoleMark {
public:
    static void paint(QPainter &p, const QRectF &span, const QColor &under, const FigureStyle &style);
};

} // namespace rematlens
