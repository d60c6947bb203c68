#include "figure_command.h"

#include "cascade_figure.h"
#include "hole_anatomy_figure_command.h"
#include "memory_map_figure_command.h"
#include "strip_figure_command.h"
#include "timeline_figure.h"

#include "views/common/byte_units.h"

namespace rematlens {

int runFigureCommand(const FigureOptions &options)
{
    // Every byte count the figure prints, its axes included, in the units asked for.
    ByteUnits::setSystem(options.decimalUnits ? UnitSystem::Decimal : UnitSystem::Binary);
    switch (options.kind) {
    case FigureOptions::Kind::Strip:
        return runStripFigure(options);
    case FigureOptions::Kind::Timeline:
        return runTimelineFigure(options);
    case FigureOptions::Kind::Cascade:
        return runCascadeFigure(options);
    case FigureOptions::Kind::MemoryMap:
        return runMemoryMapFigure(options);
    case FigureOptions::Kind::HoleAnatomy:
        return runHoleAnatomyFigure(options);
    }
    return runStripFigure(options);
}

} // namespace rematlens
