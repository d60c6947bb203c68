#pragma once

#include <QFont>
#include <QGraphicsItem>
#include <QList>

class QAbstractSeries;
class QChart;

namespace rematlens {

// A chart's legend that wraps onto as many rows as its width needs. Qt Charts' own legend keeps
// one row and elides every name once they do not fit, which in a small window leaves "re…".
// It names the chart's series in their order, each with a swatch drawn as the series is drawn.
class ChartLegendRows : public QGraphicsItem {
public:
    struct Entry {
        QString name;
        QRectF rect; // swatch and name, in the chart's coordinates
    };

    explicit ChartLegendRows(QChart *chart);

    void setLook(const QFont &font, const QColor &ink);
    // Places the chart's series in rows centred across [left, left + width] below `top`; returns
    // the height taken.
    qreal layOut(qreal left, qreal top, qreal width);
    const QList<Entry> &entries() const { return m_entries; }

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    void paintSwatch(QPainter &painter, const QAbstractSeries &series, const QRectF &swatch) const;
    qreal swatchWidth() const;

    QChart *m_chart;
    QFont m_font;
    QColor m_ink;
    QList<Entry> m_entries;
    QList<QAbstractSeries *> m_series; // of each entry
    QRectF m_bounds;
};

} // namespace rematlens
