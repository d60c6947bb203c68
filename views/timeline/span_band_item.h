#pragma once

#include <QBrush>
#include <QImage>
#include <QGraphicsItem>
#include <QList>
#include <QPair>

class QAbstractSeries;
class QChart;

namespace rematlens {

// Shaded x ranges across a chart's plot area (rematerialization under way), painted as plain
// rectangles: Qt Charts' area series takes a quarter second for a few hundred such pulses.
class SpanBandItem : public QGraphicsItem {
public:
    SpanBandItem(QChart *chart, QAbstractSeries *series); // x through the series' axes

    void setSpans(QList<QPair<double, double>> spans);
    void setBrush(const QBrush &brush);
    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    QList<QRectF> spanRects() const;
    QImage bandRow(const QList<QRectF> &rects, const QRectF &area, qreal deviceRatio) const;

    QChart *m_chart;
    QAbstractSeries *m_series;
    QList<QPair<double, double>> m_spans;
    QBrush m_brush;
};

} // namespace rematlens
