// rematlens: the command line (info, run, ...) and, with no command, the GUI.
#include "cli/command_line.h"
#include "cli/trace_source.h"
#include "gui/main_window.h"

#include <QApplication>

int main(int argc, char **argv)
{
    const rematlens::CommandLineOutcome outcome = rematlens::runCommandLine(argc, argv);
    if (!outcome.openGui)
        return outcome.exitStatus;

    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("RematLens"));
    QApplication::setApplicationName(QStringLiteral("RematLens"));
    QApplication::setApplicationVersion(QStringLiteral("0.1.0"));
    qRegisterMetaType<rematlens::LoadedTraceResult>();
    rematlens::MainWindow window;
    window.show();
    window.openTrace(outcome.guiTrace.empty() ? QString::fromLatin1(rematlens::kDemoTraceName)
                                              : QString::fromStdString(outcome.guiTrace));
    return QApplication::exec();
}
