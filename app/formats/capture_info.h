#pragma once

#include "app/requests/loaded_trace.h"
#include "app/requests/request_reporter.h"
#include "app/requests/request_settings.h"

#include <nlohmann/json.hpp>

#include <string>

namespace rematlens {

// What `info` adds from the capture's side file and from the check of the trace's end: the
// memory split the window's Trace summary shows (the same five parts, bytes and shares of the
// baseline, and the resident floor), and whether the trace records a whole step.
void addCaptureInfo(nlohmann::ordered_json &info, const LoadedTrace &trace);
std::string captureInfoText(const LoadedTrace &trace);

} // namespace rematlens
