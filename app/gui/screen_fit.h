#pragma once

#include <QRect>
#include <QSize>

class QWidget;

namespace rematlens {

// Gives a top-level widget (window or dialog) the size it wants, cut to the available geometry of
// the screen it opens on (its parent window's screen, else its own), frame included, and centres it
// over its parent window, or over that screen when it has none, kept wholly on the screen.
// Returns the frame's rectangle chosen, in screen coordinates.
QRect fitToScreen(QWidget *widget, QSize wanted);

} // namespace rematlens
