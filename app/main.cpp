// rematlens: the command line (info, run, sweep, holes, ...) and, with no command, the GUI.
#include "cli/command_line.h"
#include "app/requests/request_reporter.h"
#include "app/formats/trace_source.h"
#include "figure/figure_command.h"
#include "gui/main_window.h"
#include "gui/gui_startup_job.h"
#include "gui/startup_trace.h"

#include <QApplication>
#include <QIcon>

#include <iostream>

namespace {

// Figures are drawn headless: the offscreen platform needs no display (and renders text the
// same on every machine), unless the caller chose a platform.
int makeFigure(int argc, char **argv, const rematlens::FigureOptions &options)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("RematLens"));
    return rematlens::runFigureCommand(options);
}

} // namespace

int main(int argc, char **argv)
{
    const rematlens::CommandLineOutcome outcome = rematlens::runCommandLine(argc, argv);
    if (outcome.makeFigure)
        return makeFigure(argc, argv, outcome.figure);
    if (!outcome.openGui)
        return outcome.exitStatus;

    const rematlens::GuiOptions &options = outcome.gui;
    if (const QString problem = rematlens::GuiStartupJob::validate(options); !problem.isEmpty())
        return rematlens::reportError(rematlens::ExitBadUsage, problem.toStdString());
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("RematLens"));
    QApplication::setApplicationName(QStringLiteral("RematLens"));
    QApplication::setApplicationVersion(QStringLiteral("0.1.0"));
    rematlens::registerEmbeddedResources();
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/rematlens.svg")));
    QApplication::setDesktopFileName(QStringLiteral("rematlens")); // packaging/rematlens.desktop
    qRegisterMetaType<rematlens::LoadedTraceResult>();
    rematlens::MainWindow window;
    auto *job = new rematlens::GuiStartupJob(window, options);
    job->start();
    window.show();
    // A screenshot shows what the command line names (the demo when nothing), never the last trace.
    const bool screenshot = !options.screenshot.empty();
    const QString requested =
        QString::fromStdString(options.trace.empty() && screenshot ? rematlens::kDemoTraceName : options.trace);
    window.openTrace(rematlens::startupTrace(requested, rematlens::AppSettings()));
    return QApplication::exec();
}
