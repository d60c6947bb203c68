#include "views/timeline/span_band_item.h"

#include <QChart>
#include <QImage>
#include <QPaintEngine>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <vector>

namespace rematlens {

SpanBandItem::SpanBandItem(QChart *chart, QAbstractSeries *series)
    : QGraphicsItem(chart), m_chart(chart), m_series(series)
{
    setZValue(2.5); // Qt Charts stacks its grid at 2 and its series from 4
}

void SpanBandItem::setSpans(QList<QPair<double, double>> spans)
{
    prepareGeometryChange();
    m_spans = std::move(spans);
    update();
}

void SpanBandItem::setBrush(const QBrush &brush)
{
    m_brush = brush;
    update();
}

QRectF SpanBandItem::boundingRect() const
{
    return m_chart->plotArea();
}

QList<QRectF> SpanBandItem::spanRects() const
{
    const QRectF area = m_chart->plotArea();
    QList<QRectF> rects;
    rects.reserve(m_spans.size());
    for (const auto &[from, to] : m_spans) {
        const qreal left = m_chart->mapToPosition(QPointF(from, 0), m_series).x();
        const qreal right = m_chart->mapToPosition(QPointF(to, 0), m_series).x();
        rects.append(QRectF(QPointF(left, area.top()), QPointF(std::max(right, left + 0.5), area.bottom())));
    }
    return rects;
}

// On screen every span costs the raster engine a full-height fill, and Qt hands each large fill
// to its thread pool: hundreds of spans stalled the window. So the spans become one row of pixels
// stretched over the plot, a single blit however many there are. Exports (SVG, PDF) keep rectangles.
void SpanBandItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    const QRectF area = m_chart->plotArea();
    if (m_spans.isEmpty() || area.isEmpty())
        return;
    painter->save();
    painter->setClipRect(area);
    const QList<QRectF> rects = spanRects();
    if (painter->paintEngine() && painter->paintEngine()->type() == QPaintEngine::Raster)
        painter->drawImage(area, bandRow(rects, area, painter->device()->devicePixelRatioF()));
    else {
        painter->setPen(Qt::NoPen);
        painter->setBrush(m_brush);
        painter->drawRects(rects);
    }
    painter->restore();
}

// One pixel row at device resolution; a column partly covered by a span gets that share of the
// brush's alpha, so edges look as the rectangles' antialiased edges would.
QImage SpanBandItem::bandRow(const QList<QRectF> &rects, const QRectF &area, qreal deviceRatio) const
{
    const int width = std::max(1, int(std::ceil(area.width() * deviceRatio)));
    std::vector<float> coverage(width, 0.0f);
    for (const QRectF &r : rects) {
        const double left = std::clamp((r.left() - area.left()) * deviceRatio, 0.0, double(width));
        const double right = std::clamp((r.right() - area.left()) * deviceRatio, 0.0, double(width));
        for (int column = int(left); column < width && column < right; ++column) {
            const double covered = std::min(right, column + 1.0) - std::max(left, double(column));
            coverage[column] = std::min(1.0f, coverage[column] + float(covered));
        }
    }
    QImage row(width, 1, QImage::Format_ARGB32_Premultiplied);
    const QColor color = m_brush.color();
    auto *pixels = reinterpret_cast<QRgb *>(row.scanLine(0));
    for (int column = 0; column < width; ++column) {
        QColor shade = color;
        shade.setAlphaF(color.alphaF() * coverage[column]);
        pixels[column] = qPremultiply(shade.rgba());
    }
    return row;
}

} // namespace rematlens
