#pragma once

#include <QString>

namespace rematlens {

class AppSettings;

// The trace the window opens at start: the one asked for on the command line; else, when the
// user keeps "Reopen the last trace at start" on, the last trace shown if it is still there;
// else the embedded demo.
QString startupTrace(const QString &requested, const AppSettings &settings);

} // namespace rematlens
