#include "cascade_figure.h"

#include "app/cli/command_support.h"

namespace rematlens {

int runCascadeFigure(const FigureOptions &)
{
    return reportError(ExitBadUsage, "figure cascade is not available yet in this build (figure strip is)");
}

} // namespace rematlens
