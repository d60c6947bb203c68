#pragma once

#include "app/requests/loaded_trace.h"
#include "app/requests/request_reporter.h"
#include "app/requests/request_settings.h"
#include "app/requests/figure_options.h"
#include "core/sim/run_request.h"

#include <optional>
#include <string>

namespace rematlens {

// The run a timeline or cascade figure shows: the first --policy (DTR by default), --runtime,
// --overhead-limit, and the budget `ratio` (or --budget when it is empty). Returns an error
// message on bad usage, empty when the request is ready.
std::string figureRunRequest(const FigureOptions &options, const LoadedTrace &trace,
                             const std::optional<std::string> &ratio, RunRequest &request);

} // namespace rematlens
