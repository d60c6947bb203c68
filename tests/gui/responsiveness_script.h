#pragma once

#include "gui_heartbeat.h"

#include "app/gui/main_window.h"
#include "app/gui/trace_loader.h"
#include "views/figure/figure_writer.h"
#include "views/strip/feasibility_strip.h"
#include "views/timeline/timeline_panel.h"
#include "views/timeline/timeline_view.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>

#include <functional>
#include <memory>

// Drives the main window as a user would, on one trace: open it, sweep, select a budget and
// step through budgets with the arrow keys, change the overlay, open the cascade, map the
// sweep's range exactly for a second and cancel, zoom and pan the timeline and the strip (over
// the mapped row), export every view, resize the window. A heartbeat on the GUI
// thread measures the longest time the window could not answer, and which step it was in.
class ResponsivenessScript {
public:
    struct Result {
        double longestStallMs = 0;
        QString worstStep;
        double longestBusyMs = 0; // of the GUI thread's own CPU time, in one gap
        QString busiestStep;
        QMap<QString, double> busyByStep;
        QString failure; // empty when every step finished in time
        int selectionsShown = 0;
    };

    // A window for the script, with settings and kept sweeps in `scratch` (never the user's, so
    // every sweep replays), sweeping DTR over 0.2 to 1.0 in steps of 0.1, shown at 1400x850.
    static std::unique_ptr<rematlens::MainWindow> makeWindow(const QTemporaryDir &scratch)
    {
        qputenv("XDG_CONFIG_HOME", scratch.filePath(QStringLiteral("config")).toUtf8());
        qputenv("XDG_DATA_HOME", scratch.filePath(QStringLiteral("data")).toUtf8());
        QCoreApplication::setOrganizationName(QStringLiteral("RematLensTest"));
        qRegisterMetaType<rematlens::LoadedTraceResult>();
        auto window = std::make_unique<rematlens::MainWindow>();
        rematlens::SweepParameters p;
        p.from = QStringLiteral("0.2");
        p.to = QStringLiteral("1.0");
        p.step = QStringLiteral("0.1");
        p.policies = {QStringLiteral("DTR")};
        window->setSweepParameters(p);
        window->resize(1400, 850);
        window->show();
        return window;
    }

    explicit ResponsivenessScript(rematlens::MainWindow &window) : m_window(window)
    {
        QObject::connect(&window, &rematlens::MainWindow::traceLoaded, [this] { ++m_loaded; });
        QObject::connect(&window, &rematlens::MainWindow::traceFailed, [this] { ++m_failed; });
        QObject::connect(&window, &rematlens::MainWindow::sweepFinished, [this] { ++m_swept; });
        QObject::connect(&window, &rematlens::MainWindow::timelineShown, [this] { ++m_shown; });
    }

    // Waits at most `stepTimeoutMs` for anything the window does in the background.
    Result run(const QString &trace, int stepTimeoutMs = 120000)
    {
        m_result = {};
        m_timeout = stepTimeoutMs;
        m_heartbeat.start();
        const bool done =
            open(trace) && selectAndStep() && overlays() && cascade() && mapThenCancel() && zoomAndPan() &&
            exportViews() && resize();
        (void)done;
        m_heartbeat.stop();
        m_result.longestStallMs = m_heartbeat.longestStallMs();
        m_result.worstStep = m_heartbeat.worstStep();
        m_result.longestBusyMs = m_heartbeat.longestBusyMs();
        m_result.busiestStep = m_heartbeat.busiestStep();
        m_result.busyByStep = m_heartbeat.busyByStep();
        return m_result;
    }

private:
    bool waitFor(const std::function<bool()> &condition, const QString &what)
    {
        QDeadlineTimer deadline(m_timeout);
        while (!condition()) {
            if (deadline.hasExpired()) {
                m_result.failure = QStringLiteral("no answer within %1 s while %2").arg(m_timeout / 1000).arg(what);
                return false;
            }
            QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        }
        return true;
    }
    void step(const QString &name) { m_heartbeat.setStep(name); }
    bool waitShown(int before, const QString &what)
    {
        const bool ok = waitFor([&] { return m_shown > before; }, what);
        m_result.selectionsShown += ok ? 1 : 0;
        return ok;
    }

    bool open(const QString &trace)
    {
        step(QStringLiteral("open and sweep"));
        const int loaded = m_loaded;
        const int failed = m_failed;
        const int swept = m_swept;
        m_window.openTrace(trace);
        if (!waitFor([&] { return m_loaded > loaded || m_failed > failed; }, QStringLiteral("reading the trace")))
            return false;
        if (m_failed > failed) {
            m_result.failure = QStringLiteral("the trace did not open");
            return false;
        }
        return waitFor([&] { return m_swept > swept; }, QStringLiteral("sweeping"));
    }

    bool selectAndStep()
    {
        step(QStringLiteral("select 0.3"));
        rematlens::FeasibilityStrip *strip = m_window.strip();
        strip->setFocus();
        int before = m_shown;
        strip->selectRatio(0.3);
        if (!waitShown(before, QStringLiteral("showing the run at 0.3")))
            return false;
        for (int i = 0; i < 3; ++i) {
            step(QStringLiteral("arrow key to the next budget"));
            before = m_shown;
            QTest::keyClick(strip, Qt::Key_Right);
            if (!waitShown(before, QStringLiteral("showing the next budget")))
                return false;
        }
        return true;
    }

    bool overlays()
    {
        using Overlay = rematlens::TimelinePanel::Overlay;
        for (Overlay overlay : {Overlay::BudgetBelow, Overlay::BudgetAbove, Overlay::None}) {
            step(QStringLiteral("change the overlay"));
            const int before = m_shown;
            m_window.timeline()->setOverlay(overlay);
            if (!waitShown(before, QStringLiteral("overlaying another budget")))
                return false;
        }
        return true;
    }

    bool cascade()
    {
        step(QStringLiteral("open the cascade"));
        m_window.showViewTab(1);
        return waitFor([&] { return !m_window.cascadeBusy(); }, QStringLiteral("laying out the cascade"));
    }

    // Intervals stream into the strip while the map runs; Cancel must answer at once.
    bool mapThenCancel()
    {
        step(QStringLiteral("map exactly (Ctrl+M), cancel after a second"));
        int finished = 0;
        const QMetaObject::Connection counting =
            QObject::connect(&m_window, &rematlens::MainWindow::mapFinished, [&finished] { ++finished; });
        if (!m_window.startMap()) {
            QObject::disconnect(counting);
            m_result.failure = QStringLiteral("Map Exactly refused to start");
            return false;
        }
        QDeadlineTimer second(1000);
        while (!second.hasExpired() && finished == 0)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        step(QStringLiteral("cancel the map"));
        m_window.cancelJobs();
        const bool ok = waitFor([&] { return finished > 0; }, QStringLiteral("cancelling the map"));
        QObject::disconnect(counting);
        return ok;
    }

    static void wheel(QWidget *widget, int clicks)
    {
        const QPointF at(widget->width() * 0.6, widget->height() * 0.6);
        QWheelEvent event(at, widget->mapToGlobal(at), QPoint(), QPoint(0, 120 * clicks), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(widget, &event);
    }

    bool zoomAndPan()
    {
        step(QStringLiteral("zoom and pan the timeline"));
        m_window.showViewTab(0);
        rematlens::TimelineView *view = m_window.timeline()->view();
        for (int key : {Qt::Key_Plus, Qt::Key_Plus, Qt::Key_Plus, Qt::Key_Left, Qt::Key_Right, Qt::Key_Minus})
            QTest::keyClick(view, Qt::Key(key));
        wheel(view, 3);
        wheel(view, -1);
        QTest::keyClick(view, Qt::Key_0);
        step(QStringLiteral("zoom and pan the strip"));
        rematlens::FeasibilityStrip *strip = m_window.strip();
        wheel(strip, 4);
        QTest::mouseMove(strip, QPoint(strip->width() / 2, strip->height() - 20));
        QTest::keyClick(strip, Qt::Key_Plus);
        QTest::keyClick(strip, Qt::Key_0);
        QCoreApplication::processEvents();
        return true;
    }

    bool exportViews()
    {
        QTemporaryDir directory;
        rematlens::FigureWriter::Options options;
        options.dpi = 150;
        for (const rematlens::FigureView &view : m_window.figureViews()) {
            step(QStringLiteral("export %1").arg(view.name));
            for (const QString &suffix : {QStringLiteral("svg"), QStringLiteral("png")}) {
                const QString problem = rematlens::FigureWriter::write(
                    *view.source, directory.filePath(QStringLiteral("figure.") + suffix), options);
                if (!problem.isEmpty()) {
                    m_result.failure = problem;
                    return false;
                }
            }
            QCoreApplication::processEvents();
        }
        return true;
    }

    bool resize()
    {
        for (const QSize size : {QSize(1024, 700), QSize(1920, 1080), QSize(1400, 850)}) {
            step(QStringLiteral("resize to %1x%2").arg(size.width()).arg(size.height()));
            m_window.resize(size);
            QCoreApplication::processEvents();
        }
        return true;
    }

    rematlens::MainWindow &m_window;
    GuiHeartbeat m_heartbeat;
    Result m_result;
    int m_timeout = 120000;
    int m_loaded = 0;
    int m_failed = 0;
    int m_swept = 0;
    int m_shown = 0;
};
