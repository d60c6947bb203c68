#pragma once

#include "app/requests/figure_options.h"

namespace rematlens {

// rematlens figure timeline: the memory timeline of one run (--ratio or --budget, --policy,
// --compare-ratio, --x step|clock). Returns the exit status.
int runTimelineFigure(const FigureOptions &options);

} // namespace rematlens
