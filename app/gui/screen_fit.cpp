#include "screen_fit.h"

#include <QGuiApplication>
#include <QScreen>
#include <QWidget>
#include <QWindow>

#include <algorithm>

namespace rematlens {

namespace {

// Title bar and borders a window manager commonly adds, for a window not yet shown.
const QMargins kAssumedFrame(8, 32, 8, 8);

QMargins frameOf(const QWidget *window)
{
    if (window && window->isVisible() && window->windowHandle())
        return window->windowHandle()->frameMargins();
    return kAssumedFrame;
}

// `inner` moved (not resized) into `outer`, as far as it fits.
QRect keptInside(QRect inner, const QRect &outer)
{
    inner.moveLeft(std::max(outer.left(), std::min(inner.left(), outer.right() - inner.width() + 1)));
    inner.moveTop(std::max(outer.top(), std::min(inner.top(), outer.bottom() - inner.height() + 1)));
    return inner;
}

} // namespace

QRect fitToScreen(QWidget *widget, QSize wanted)
{
    const QWidget *owner = widget->parentWidget() ? widget->parentWidget()->window() : nullptr;
    QScreen *screen = owner ? owner->screen() : widget->screen();
    if (!screen)
        screen = QGuiApplication::primaryScreen();
    if (!screen) {
        widget->resize(wanted);
        return widget->frameGeometry();
    }
    const QRect available = screen->availableGeometry();
    // The same window manager frames the owner and this window, so a shown owner's frame is the best guess.
    const QMargins frame = widget->isVisible() ? frameOf(widget) : frameOf(owner);
    const QSize size = wanted.boundedTo(available.size().shrunkBy(frame)).expandedTo(QSize(1, 1));
    widget->resize(size);
    QRect frameRect(QPoint(0, 0), widget->size().grownBy(frame));
    const bool overOwner = owner && owner->isVisible() && available.intersects(owner->frameGeometry());
    frameRect.moveCenter(overOwner ? owner->frameGeometry().center() : available.center());
    frameRect = keptInside(frameRect, available);
    widget->move(frameRect.topLeft()); // a window's position is its frame's
    return frameRect;
}

} // namespace rematlens
