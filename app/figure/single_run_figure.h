#pragma once

#include "app/requests/loaded_trace.h"
#include "app/requests/request_reporter.h"
#include "app/requests/request_settings.h"
#include "app/requests/figure_options.h"
#include "core/sim/run_request.h"

#include <optional>
#include <string_view>

namespace rematlens {

// What a figure of one run (timeline, cascade, memory map) starts from: its one trace, loaded
// with the baseline, and the run the options ask for.
struct SingleRunFigure {
    LoadedTrace trace;
    RunRequest request;

    // Checks the options shared by those figures and builds the run; on bad usage or input
    // it reports the error (naming the figure `kind`), sets exitCode and returns nothing.
    static std::optional<SingleRunFigure> prepare(const FigureOptions &options, std::string_view kind,
                                                  int &exitCode);
};

} // namespace rematlens
