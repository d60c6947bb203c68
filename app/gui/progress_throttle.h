#pragma once

#include <QObject>
#include <QTimer>

#include <functional>

namespace rematlens {

// Shows a job's progress at most once per interval: QProgressBar repaints at once, on the GUI
// thread, whenever the text it shows changes ("%v of %m" changes with every step), so a job
// reporting each of a thousand rescue candidates or runs kept the window painting (a click on
// a U-Net hole stalled 90-100 ms). The first report shows at once; of a burst after it, the
// latest shows when the interval ends.
class ProgressThrottle : public QObject {
    Q_OBJECT

public:
    explicit ProgressThrottle(QObject *parent = nullptr);

    void offer(std::function<void()> show);
    // The job ended: a report still waiting is dropped, never shown after the end.
    void drop();

private:
    void showPending();

    static constexpr int kIntervalMs = 100;
    QTimer m_timer;
    std::function<void()> m_pending;
};

} // namespace rematlens
