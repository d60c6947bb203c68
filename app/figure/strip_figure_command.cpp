#include "strip_figure_command.h"

#include "app/cli/command_support.h"

namespace rematlens {

int runStripFigure(const FigureOptions &)
{
    return reportError(ExitBadUsage, "figure strip is not available yet");
}

} // namespace rematlens
