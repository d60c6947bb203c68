#include "timeline_figure.h"

#include "app/cli/command_support.h"

namespace rematlens {

int runTimelineFigure(const FigureOptions &)
{
    return reportError(ExitBadUsage, "figure timeline is not available yet in this build (figure strip is)");
}

} // namespace rematlens
