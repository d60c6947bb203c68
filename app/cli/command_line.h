#pragma once

#include <string>

namespace rematlens {

// What the command line asked for: a finished command (with its exit status) or the GUI.
struct CommandLineOutcome {
    bool openGui = false;
    std::string guiTrace; // empty: the embedded demo
    int exitStatus = 0;
};

// Parses the command line (the contract in docs/design.md) and runs any command it names.
CommandLineOutcome runCommandLine(int argc, char **argv);

} // namespace rematlens
