#pragma once

#include <QElapsedTimer>
#include <QMap>
#include <QString>
#include <QTimer>

#include <algorithm>
#include <ctime>

// A timer ticking on the GUI thread every few milliseconds: the longest gap between two ticks,
// less the interval, is the longest time the window could not answer. Each gap is charged to
// the step of the script that was running (`setStep`). The GUI thread's own CPU time in each
// gap tells work on the GUI thread from a busy machine that did not schedule it: the longest
// busy gap is what the code can be blamed for.
class GuiHeartbeat {
public:
    explicit GuiHeartbeat(int intervalMs = 5) : m_interval(intervalMs)
    {
        m_timer.setInterval(intervalMs);
        m_timer.setTimerType(Qt::PreciseTimer);
        QObject::connect(&m_timer, &QTimer::timeout, [this] { beat(); });
    }

    void start()
    {
        m_longest = 0;
        m_longestBusy = 0;
        m_worstStep.clear();
        m_busiestStep.clear();
        m_busyByStep.clear();
        m_clock.start();
        m_last = 0;
        m_lastCpu = threadCpuMs();
        m_timer.start();
    }
    void stop()
    {
        beat();
        m_timer.stop();
    }
    void setStep(const QString &step)
    {
        beat(); // the gap so far belongs to the step before
        m_step = step;
    }
    double longestStallMs() const { return m_longest; }
    const QString &worstStep() const { return m_worstStep; }
    // The most CPU time the GUI thread spent between two ticks.
    double longestBusyMs() const { return m_longestBusy; }
    const QString &busiestStep() const { return m_busiestStep; }
    // The most CPU time between two ticks, per step of the script.
    const QMap<QString, double> &busyByStep() const { return m_busyByStep; }

private:
    void beat()
    {
        const double now = double(m_clock.nsecsElapsed()) / 1e6;
        const double stall = std::max(0.0, now - m_last - m_interval);
        if (stall > m_longest) {
            m_longest = stall;
            m_worstStep = m_step;
        }
        m_last = now;
        const double cpu = threadCpuMs();
        double &stepBusy = m_busyByStep[m_step];
        stepBusy = std::max(stepBusy, cpu - m_lastCpu);
        if (cpu - m_lastCpu > m_longestBusy) {
            m_longestBusy = cpu - m_lastCpu;
            m_busiestStep = m_step;
        }
        m_lastCpu = cpu;
    }
    static double threadCpuMs()
    {
        timespec t{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
    }

    QTimer m_timer;
    QElapsedTimer m_clock;
    int m_interval;
    double m_last = 0;
    double m_longest = 0;
    double m_lastCpu = 0;
    double m_longestBusy = 0;
    QString m_step;
    QString m_worstStep;
    QString m_busiestStep;
    QMap<QString, double> m_busyByStep;
};
