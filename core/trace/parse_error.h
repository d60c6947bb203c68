#pragma once

#include <string>

namespace rematlens {

// A problem in a trace: which file, which line (1-based; 0 for the file as a whole) and what was expected.
struct ParseError {
    std::string file;
    int line = 0;
    std::string message;

    std::string toString() const
    {
        return line > 0 ? file + ":" + std::to_string(line) + ": " + message : file + ": " + message;
    }
};

} // namespace rematlens
