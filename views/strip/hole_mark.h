#pragma once

#include "views/figure/figure_style.h"

#include <QRectF>

class QPainter;

namespace rematlens {

// How a feasibility hole looks, in the strip and in its legend: the failing cells hatched
// (dark lines on light colours, light on dark) and outlined. Holes too close together to tell
// apart at the zoom shown are outlined as one group, with their number, over the cells.
class HoleMark {
public:
    static void paint(QPainter &p, const QRectF &span, const QColor &under, const FigureStyle &style);
    static void paintGroup(QPainter &p, const QRectF &span, int holes, const FigureStyle &style);
};

} // namespace rematlens
