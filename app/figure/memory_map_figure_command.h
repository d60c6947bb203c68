#pragma once

#include "app/requests/figure_options.h"

namespace rematlens {

// rematlens figure memory-map: the allocator's segments and blocks of one run (--ratio or
// --budget, --allocator caching|best-fit) at --step, by default the failing step of a failed
// run, else the step where reserved memory peaks. Returns the exit status.
int runMemoryMapFigure(const FigureOptions &options);

} // namespace rematlens
