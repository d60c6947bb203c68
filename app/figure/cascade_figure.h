#pragma once

#include "app/requests/figure_options.h"

namespace rematlens {

// rematlens figure cascade: the eviction and rematerialization cascade of one run (--ratio or
// --budget, --policy, --compare-ratio, --x step|clock). Returns the exit status.
int runCascadeFigure(const FigureOptions &options);

} // namespace rematlens
