#include "views/strip/unmapped_mark.h"

#include "views/strip/hatch_lines.h"

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
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(QColor(150, 150, 150), style.axisWidth, Qt::SolidLine, Qt::FlatCap));
    const double spacing = 0.5 * lineHeight;
    // Lines anchored to whole multiples of the spacing, so a panned view does not shimmer.
    const double start = std::floor((span.left() - span.height()) / spacing) * spacing;
    for (const QLineF &line : HatchLines::rising(span, start, spacing))
        p.drawLine(line);
    for (const QLineF &line : HatchLines::falling(span, start, spacing))
        p.drawLine(line);
    p.restore();
}

} // namespace rematlens
