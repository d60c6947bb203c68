#include "figure_command.h"

#include "cascade_figure.h"
#include "strip_figure_command.h"
#include "timeline_figure.h"

namespace rematlens {

int runFigureCommand(const FigureOptions &options)
{
    switch (options.kind) {
    case FigureOptions::Kind::Strip: return runStripFigure(options);
    case FigureOptions::Kind::Timeline: return runTimelineFigure(options);
    case FigureOptions::Kind::Cascade: return runCascadeFigure(options);
    }
    return runStripFigure(options);
}

} // namespace rematlens
