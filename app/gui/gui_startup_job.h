#pragma once

#include "app/requests/gui_options.h"

#include <QObject>
#include <QSize>

#include <optional>
#include <utility>

namespace rematlens {

class MainWindow;

// Does what `rematlens gui TRACE ...` asks of the window: the sweep's range, policies,
// allocator models and schedule rows, the timeline's overlay and the window's size apply at
// once; once the trace is read, its sweep done and its known maps shown (and, with --map, the
// sweep's range mapped exactly), it zooms and selects the budget or interval asked for. With
// --screenshot it then renders the whole window to a PNG and quits; without, the window stays.
class GuiStartupJob : public QObject {
    Q_OBJECT

public:
    GuiStartupJob(MainWindow &window, GuiOptions options);

    // Checks the options; an error message when they are unusable.
    static QString validate(const GuiOptions &options);
    // --zoom-bytes as budgets, when given and valid.
    static std::optional<std::pair<double, double>> zoomBytes(const GuiOptions &options);
    // --size, or the screenshot's default size; none for a window that keeps its remembered size.
    static std::optional<QSize> windowSize(const GuiOptions &options);
    void start();

private:
    void applySweepOptions();
    void afterSweep();
    void finish();
    void grabSoon();
    void waitForRunViews();
    void fail(const QString &message);
    bool screenshot() const { return !m_options.screenshot.empty(); }

    MainWindow &m_window;
    GuiOptions m_options;
    bool m_grabbing = false;
    bool m_mapped = false;
    bool m_finished = false;
    int m_viewsPending = 0;
};

} // namespace rematlens
