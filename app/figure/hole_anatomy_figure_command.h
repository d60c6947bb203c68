#pragma once

#include "app/requests/figure_options.h"

namespace rematlens {

// `rematlens figure hole-anatomy TRACE --ratio R`: finds the hole holding the failing budget R
// to the byte (as explain does), replays its lower edge's two budgets with a recorder and draws
// them as the window's Hole anatomy figure.
int runHoleAnatomyFigure(const FigureOptions &options);

} // namespace rematlens
