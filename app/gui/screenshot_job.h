#pragma once

#include "app/cli/command_line.h"

#include <QObject>
#include <QSize>

namespace rematlens {

class MainWindow;

// Drives the window for `rematlens gui ... --sweep --select --screenshot`: once the trace is
// read and the sweep done, selects the budget, renders the whole window to a PNG and quits.
class ScreenshotJob : public QObject {
    Q_OBJECT

public:
    ScreenshotJob(MainWindow &window, GuiOptions options);

    // Checks the options; an error message when they are unusable.
    static QString validate(const GuiOptions &options, QSize &size);
    void start(const QSize &size);

private:
    void capture();
    void grabSoon();
    void fail(const QString &message);

    MainWindow &m_window;
    GuiOptions m_options;
    bool m_grabbing = false;
};

} // namespace rematlens
