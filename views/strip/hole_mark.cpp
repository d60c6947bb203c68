#include "views/strip/hole_mark.h"

#include "views/strip/hatch_lines.h"

#include <QFontMetricsF>
#include <QPainter>

namespace rematlens {

void HoleMark::paint(QPainter &p, const QRectF &span, const QColor &under, const FigureStyle &style)
{
    const double lineHeight = QFontMetricsF(style.font()).height();
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    const QColor hatch = under.lightnessF() < 0.45 ? QColor(Qt::white) : style.hole();
    p.setPen(QPen(hatch, style.axisWidth, Qt::SolidLine, Qt::FlatCap));
    const double spacing = 0.42 * lineHeight;
    for (const QLineF &line : HatchLines::rising(span, span.left() - span.height(), spacing))
        p.drawLine(line);
    p.restore();
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    const double pen = std::max(style.lineWidth, 0.12 * lineHeight);
    p.setPen(QPen(style.hole(), pen, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
    p.setBrush(Qt::NoBrush);
    p.drawRect(span.adjusted(pen / 2, pen / 2, -pen / 2, -pen / 2));
    p.restore();
}

} // namespace rematlens
