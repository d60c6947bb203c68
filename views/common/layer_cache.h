#pragma once

#include <QList>
#include <QPixmap>

#include <functional>

class QPainter;

namespace rematlens {

// A widget's costly layer kept as a pixmap, painted again only when what it shows changes
// (invalidate) or its size, pixel ratio or view does: a selection drawn over it repaints alone.
class LayerCache {
public:
    void invalidate() { m_stale = true; }
    // The layer for this size, ratio and view (e.g. the zoom), painted by `paint` when stale.
    const QPixmap &layer(QSize size, qreal pixelRatio, const QList<double> &view,
                         const std::function<void(QPainter &)> &paint);

private:
    QPixmap m_pixmap;
    QList<double> m_view;
    bool m_stale = true;
};

} // namespace rematlens
