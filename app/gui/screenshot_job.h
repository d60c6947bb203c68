#pragma once

#include "app/cli/command_line.h"

#include <QObject>
#include <QSize>

#include <optional>
#include <utility>

namespace rematlens {

class MainWindow;

// Drives the window for `rematlens gui ... --sweep --select --screenshot`: once the trace is
// read and the sweep done (and with --map the sweep's range mapped exactly), zooms, selects the
// budget or interval, renders the whole window to a PNG and quits.
class ScreenshotJob : public QObject {
    Q_OBJECT

public:
    ScreenshotJob(MainWindow &window, GuiOptions options);

    // Checks the options; an error message when they are unusable.
    static QString validate(const GuiOptions &options, QSize &size);
    // --zoom-bytes as budgets, when given and valid.
    static std::optional<std::pair<double, double>> zoomBytes(const GuiOptions &options);
    void start(const QSize &size);

private:
    void capture();
    void grabSoon();
    void waitForRunViews();
    void fail(const QString &message);

    MainWindow &m_window;
    GuiOptions m_options;
    bool m_grabbing = false;
    bool m_mapped = false;
    bool m_waitedForStory = false;
    int m_viewsPending = 0;
};

} // namespace rematlens
