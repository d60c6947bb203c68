#include "views/common/layer_cache.h"

#include <QPainter>

namespace rematlens {

const QPixmap &LayerCache::layer(QSize size, qreal pixelRatio, const QList<double> &view,
                                 const std::function<void(QPainter &)> &paint)
{
    const QSize pixels = (QSizeF(size) * pixelRatio).toSize();
    if (m_stale || m_pixmap.size() != pixels || m_pixmap.devicePixelRatio() != pixelRatio || m_view != view) {
        m_pixmap = QPixmap(pixels);
        m_pixmap.setDevicePixelRatio(pixelRatio);
        m_pixmap.fill(Qt::transparent);
        QPainter painter(&m_pixmap);
        paint(painter);
        m_view = view;
        m_stale = false;
    }
    return m_pixmap;
}

} // namespace rematlens
