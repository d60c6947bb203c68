#include "views/timeline/chart_legend_rows.h"

#include <QAreaSeries>
#include <QChart>
#include <QFontMetricsF>
#include <QLineSeries>
#include <QPainter>
#include <QScatterSeries>

#include <algorithm>

namespace rematlens {

ChartLegendRows::ChartLegendRows(QChart *chart) : QGraphicsItem(chart), m_chart(chart)
{
    setZValue(12);
}

void ChartLegendRows::setLook(const QFont &font, const QColor &ink)
{
    m_font = font;
    m_ink = ink;
    update();
}

qreal ChartLegendRows::swatchWidth() const
{
    return QFontMetricsF(m_font).height() * 1.4;
}

qreal ChartLegendRows::layOut(qreal left, qreal top, qreal width)
{
    prepareGeometryChange();
    m_entries.clear();
    m_series.clear();
    const QFontMetricsF metrics(m_font);
    const qreal line = metrics.height();
    const qreal gap = line * 0.3;     // swatch to name
    const qreal spacing = line * 0.9; // entry to entry
    // Entries go into rows left to right; each row is then centred.
    QList<QList<int>> rows(1);
    qreal rowWidth = 0;
    for (QAbstractSeries *series : m_chart->series()) {
        const qreal entryWidth = swatchWidth() + gap + metrics.horizontalAdvance(series->name());
        const qreal needed = rows.back().isEmpty() ? entryWidth : rowWidth + spacing + entryWidth;
        if (needed > width && !rows.back().isEmpty()) {
            rows.append(QList<int>());
            rowWidth = entryWidth;
        } else {
            rowWidth = needed;
        }
        rows.back().append(int(m_entries.size()));
        m_entries.append({series->name(), QRectF(0, 0, entryWidth, line)});
        m_series.append(series);
    }
    for (int r = 0; r < rows.size(); ++r) {
        qreal used = 0;
        for (int i : rows[r])
            used += m_entries[i].rect.width();
        used += spacing * qreal(std::max<qsizetype>(rows[r].size() - 1, 0));
        qreal x = left + std::max<qreal>((width - used) / 2, 0);
        for (int i : rows[r]) {
            m_entries[i].rect.moveTopLeft(QPointF(x, top + r * line));
            x += m_entries[i].rect.width() + spacing;
        }
    }
    const qreal height = m_entries.isEmpty() ? 0 : rows.size() * line;
    m_bounds = QRectF(left, top, width, height);
    update();
    return height;
}

QRectF ChartLegendRows::boundingRect() const
{
    return m_bounds;
}

void ChartLegendRows::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setFont(m_font);
    const qreal line = QFontMetricsF(m_font).height();
    for (qsizetype i = 0; i < m_entries.size(); ++i) {
        const QRectF &rect = m_entries[i].rect;
        const QRectF swatch(rect.left(), rect.top() + line * 0.2, swatchWidth(), line * 0.6);
        paintSwatch(*painter, *m_series[i], swatch);
        painter->setPen(m_ink);
        const QRectF text = rect.adjusted(swatchWidth() + line * 0.3, 0, 0, 0);
        painter->drawText(text, Qt::AlignLeft | Qt::AlignVCenter, m_entries[i].name);
    }
    painter->restore();
}

// Lines as a stroke in their own pen (dashes show), markers as the marker, areas as their fill.
void ChartLegendRows::paintSwatch(QPainter &painter, const QAbstractSeries &series, const QRectF &swatch) const
{
    switch (series.type()) {
    case QAbstractSeries::SeriesTypeScatter: {
        const auto &scatter = static_cast<const QScatterSeries &>(series);
        const qreal size = std::min(swatch.height() * 1.2, scatter.markerSize());
        const QPointF c = swatch.center();
        painter.setPen(Qt::NoPen);
        painter.setBrush(scatter.color());
        if (scatter.markerShape() == QScatterSeries::MarkerShapeTriangle)
            painter.drawPolygon(QPolygonF{QPointF(c.x(), c.y() - size / 2), QPointF(c.x() + size / 2, c.y() + size / 2),
                                          QPointF(c.x() - size / 2, c.y() + size / 2)});
        else
            painter.drawEllipse(c, size / 2, size / 2);
        return;
    }
    case QAbstractSeries::SeriesTypeArea: {
        const auto &area = static_cast<const QAreaSeries &>(series);
        painter.setPen(area.pen().style() == Qt::NoPen ? QPen(Qt::NoPen) : QPen(area.pen().color(), 1));
        painter.setBrush(area.brush());
        painter.drawRect(swatch);
        return;
    }
    default: {
        const auto &lines = static_cast<const QXYSeries &>(series);
        QPen pen = lines.pen();
        pen.setWidthF(std::clamp<qreal>(pen.widthF(), 1.0, 2.5));
        pen.setCapStyle(Qt::FlatCap);
        painter.setPen(pen);
        painter.drawLine(QPointF(swatch.left(), swatch.center().y()), QPointF(swatch.right(), swatch.center().y()));
        return;
    }
    }
}

} // namespace rematlens
