#pragma once

#include "app/requests/figure_options.h"

namespace rematlens {

// Draws the figure the command line asked for and returns the exit status. Needs a
// QApplication (main creates it on the offscreen platform, so no display is needed).
int runFigureCommand(const FigureOptions &options);

} // namespace rematlens
