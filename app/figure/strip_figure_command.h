#pragma once

#include "app/requests/figure_options.h"

namespace rematlens {

// rematlens figure strip: sweeps each trace (or reads sweep files) and draws one strip panel
// per trace, one row per policy, with one legend. Returns the exit status.
int runStripFigure(const FigureOptions &options);

} // namespace rematlens
