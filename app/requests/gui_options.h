#pragma once

#include "app/requests/allocator_options.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rematlens {

// What `rematlens gui` was asked to do.
struct GuiOptions {
    std::string trace;             // empty: the embedded demo
    std::string sweep;             // "A:B:S": sweep this range once the trace is read
    std::vector<std::string> policies;
    std::string select;            // a ratio to select once the sweep is done
    bool map = false;              // map the sweep's range exactly once it is done
    std::optional<std::int64_t> selectBytes; // after the map: select the interval holding this budget
    std::string zoomBytes;         // "X:Y": show budgets X to Y bytes
    std::string overlay;           // the timeline's overlay: "none", "below" or "above"
    std::string screenshot;        // render the window to this PNG and exit
    std::string size;              // window size, WIDTHxHEIGHT (a screenshot's default: 1400x850)
    AllocatorOptions allocator;    // of the sweep
    bool checkpointing = false;    // the strip's rows of static schedules
    bool optimal = false;
    std::optional<double> timeLimit; // seconds per budget of the optimal row
};

} // namespace rematlens
