#pragma once

class QLabel;
class QStatusBar;
class QString;

namespace rematlens {

// A field of the status bar's own: framed, so a message beside it never runs into it; ending
// in "…" when the bar is narrow; hidden until it has something to say. The caller places it.
QLabel *newStatusField(QStatusBar *bar, const QString &objectName);

} // namespace rematlens
