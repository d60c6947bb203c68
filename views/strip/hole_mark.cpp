#include "views/strip/hole_mark.h"

#include "views/strip/hatch_lines.h"

#include <QFontMetricsF>
#include <QObject>
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

void HoleMark::paintGroup(QPainter &p, const QRectF &span, int holes, const FigureStyle &style)
{
    const QFontMetricsF metrics(style.font());
    const double pen = std::max(style.lineWidth, 0.12 * metrics.height());
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(style.hole(), pen, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
    p.setBrush(Qt::NoBrush);
    p.drawRect(span.adjusted(pen / 2, pen / 2, -pen / 2, -pen / 2));
    // The count on a light pill inside the outline: "207 holes" where it fits, else "207".
    const auto pillOf = [&](const QString &label) {
        return QSizeF(metrics.horizontalAdvance(label) + 0.5 * metrics.height(), metrics.height());
    };
    const auto fits = [&](const QSizeF &text) {
        return text.width() + 2 * pen < span.width() && text.height() + 2 * pen < span.height();
    };
    QString label = QObject::tr("%1 holes").arg(holes);
    if (!fits(pillOf(label)))
        label = QString::number(holes);
    const QSizeF text = pillOf(label);
    if (fits(text)) {
        const QRectF pill(span.center() - QPointF(text.width() / 2, text.height() / 2), text);
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(255, 255, 255, 220));
        p.drawRoundedRect(pill, 0.3 * metrics.height(), 0.3 * metrics.height());
        p.setPen(style.hole());
        p.setFont(style.font());
        p.drawText(pill, Qt::AlignCenter, label);
    }
    p.restore();
}

} // namespace rematlens
