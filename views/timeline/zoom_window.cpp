#include "views/timeline/zoom_window.h"

#include <algorithm>

namespace rematlens {

ZoomWindow ZoomWindow::whole(double extent, double minimumWidth)
{
    ZoomWindow w;
    w.extent = std::max(extent, minimumWidth);
    w.minimumWidth = minimumWidth;
    w.reset();
    return w;
}

void ZoomWindow::zoom(double factor, double anchor)
{
    anchor = std::clamp(anchor, from, to);
    const double newWidth = std::clamp(width() * factor, minimumWidth, extent);
    const double share = width() > 0 ? (anchor - from) / width() : 0.5;
    from = anchor - share * newWidth;
    to = from + newWidth;
    clamp();
}

void ZoomWindow::pan(double fractionOfWidth)
{
    const double shift = fractionOfWidth * width();
    from += shift;
    to += shift;
    clamp();
}

void ZoomWindow::show(double newFrom, double newTo)
{
    if (newTo < newFrom)
        std::swap(newFrom, newTo);
    from = newFrom;
    to = std::max(newTo, newFrom + minimumWidth);
    clamp();
}

void ZoomWindow::reset()
{
    from = 0;
    to = extent;
}

void ZoomWindow::clamp()
{
    const double w = std::min(width(), extent);
    if (from < 0) {
        from = 0;
        to = w;
    }
    if (to > extent) {
        to = extent;
        from = extent - w;
    }
}

} // namespace rematlens
