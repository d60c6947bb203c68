#pragma once

#include "app/requests/figure_options.h"
#include "app/requests/gui_options.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rematlens {

// What the command line asked for: a finished command (with its exit status), the GUI, or a
// figure (drawn by the figure library, which needs Qt Gui and an application object).
struct CommandLineOutcome {
    bool openGui = false;
    GuiOptions gui;
    int exitStatus = 0;
    bool makeFigure = false;
    FigureOptions figure;

    static CommandLineOutcome finished(int status)
    {
        CommandLineOutcome outcome;
        outcome.exitStatus = status;
        return outcome;
    }
};

// Parses the command line (the contract in docs/design.md) and runs any command it names.
CommandLineOutcome runCommandLine(int argc, char **argv);

} // namespace rematlens
