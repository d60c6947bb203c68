#pragma once

// What a GUI test case starts from: a first start, as a newcomer has it. The user's settings and
// data (sweeps, maps and schedules kept per trace) live in a folder of the suite's own, never the
// user's home; each case empties them and makes a new window, so that no case sees what an
// earlier case left, or fails because a skipped one left nothing.

#include "app/gui/main_window.h"
#include "app/gui/trace_loader.h"
#include "views/sweep/sweep_parameters.h"

#include <QCoreApplication>
#include <QDir>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

class GuiTestUser {
public:
    // From initTestCase, before any window or QSettings: Qt reads the settings folder once.
    void setUp(const QString &organization = QStringLiteral("RematLensTest"))
    {
        qputenv("XDG_CONFIG_HOME", m_dir.filePath(QStringLiteral("config")).toUtf8());
        qputenv("XDG_DATA_HOME", m_dir.filePath(QStringLiteral("data")).toUtf8());
        QCoreApplication::setOrganizationName(organization);
        QCoreApplication::setApplicationName(organization);
        qRegisterMetaType<rematlens::LoadedTraceResult>();
    }

    // From init(): no settings and no data, as before a first start.
    void reset() const
    {
        QSettings settings;
        settings.clear();
        settings.sync();
        QDir(m_dir.filePath(QStringLiteral("data"))).removeRecursively();
    }

    bool isValid() const { return m_dir.isValid(); }

    // A file of the suite's own folder (beside, not inside, the user's settings and data).
    QString filePath(const QString &name) const { return m_dir.filePath(name); }

private:
    QTemporaryDir m_dir;
};

// A new window shown at `size`.
inline std::unique_ptr<rematlens::MainWindow> showNewWindow(QSize size = QSize(1200, 800))
{
    auto window = std::make_unique<rematlens::MainWindow>();
    window->resize(size);
    window->show();
    if (!QTest::qWaitForWindowExposed(window.get()))
        qWarning("the window was not exposed");
    return window;
}

inline rematlens::SweepParameters sweepGrid(const QString &from, const QString &to, const QString &step,
                                            const QStringList &policies = {QStringLiteral("DTR")})
{
    rematlens::SweepParameters p;
    p.from = from;
    p.to = to;
    p.step = step;
    p.policies = policies;
    return p;
}

// Opens `trace` with `parameters` and waits until its sweep and schedule rows are done; false
// (with a warning saying what did not come) after `timeoutMs`.
[[nodiscard]] inline bool openAndSweep(rematlens::MainWindow &window, const QString &trace,
                                       const rematlens::SweepParameters &parameters, int timeoutMs = 60000)
{
    QSignalSpy finished(&window, &rematlens::MainWindow::sweepFinished);
    window.setSweepParameters(parameters);
    window.openTrace(trace);
    if (!QTest::qWaitFor([&] { return finished.count() >= 1; }, timeoutMs)) {
        qWarning("%s: the sweep did not finish in %d ms", qPrintable(trace), timeoutMs);
        return false;
    }
    if (!QTest::qWaitFor([&] { return !window.sweepRunning() && !window.schedulesRunning(); }, timeoutMs)) {
        qWarning("%s: the schedule rows did not finish in %d ms", qPrintable(trace), timeoutMs);
        return false;
    }
    return true;
}
