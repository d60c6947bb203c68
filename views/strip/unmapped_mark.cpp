#include "views/strip/unmapped_mark.h"

#include <QFontMetricsF>
#include <QPainter>

#include <cmath>

namespace rematlens {

void UnmappedMark::paint(QPainter &p, const QRectF &span, const FigureStyle &style)
{
    if (span.width() <= 0 || span.height() <= 0)
        return;
    const double lineHeight = QFontMetricsF(style.font()).height();
    p.save();
    // A light veil, not a cover: the sweep's cells beneath stay visible under the hatching.
    p.fillRect(span, QColor(255, 255, 255, 110));
    p.setClipRect(span, Qt::IntersectClip);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(QColor(150, 150, 150), style.axisWidth, Qt::SolidLine, Qt::FlatCap));
    const double spacing = 0.5 * lineHeight;
    // Lines anchored to whole multiples of the spacing, so a panned view does not shimmer.
    const double start = std::floor((span.left() - span.height()) / spacing) * spacing;
    for (double x = start; x < span.right(); x += spacing) {
        p.drawLine(QPointF(x, span.bottom()), QPointF(x + span.height(), span.top()));
        p.drawLine(QPointF(x, span.top()), QPointF(x + span.height(), span.bottom()));
    }
    p.restore();
}

} // namespace rematlens
