#include "views/timeline/span_band_item.h"

#include <QChart>
#include <QPainter>

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

void SpanBandItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    const QRectF area = m_chart->plotArea();
    painter->save();
    painter->setClipRect(area);
    painter->setPen(Qt::NoPen);
    painter->setBrush(m_brush);
    for (const auto &[from, to] : m_spans) {
        const qreal left = m_chart->mapToPosition(QPointF(from, 0), m_series).x();
        const qreal right = m_chart->mapToPosition(QPointF(to, 0), m_series).x();
        painter->drawRect(QRectF(QPointF(left, area.top()), QPointF(std::max(right, left + 0.5), area.bottom())));
    }
    painter->restore();
}

} // namespace rematlens
