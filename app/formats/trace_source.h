#pragma once

#include "core/sim/baseline.h"
#include "core/trace/trace_reader.h"

#include <string>

namespace rematlens {

// The name that stands for the demo trace compiled into the program.
inline constexpr const char *kDemoTraceName = ":demo";

// The demo trace, the public traces' checksums and the icon live in a static library's
// resources, which must be registered by hand before use (once is enough; repeats are harmless).
void registerEmbeddedResources();

// Reads a trace from a path, or the embedded demo for ":demo".
TraceReadResult loadTrace(const std::string &pathOrDemo);

// The file name shown in results ("unet-6-....log", or ":demo").
std::string traceDisplayName(const std::string &pathOrDemo);

} // namespace rematlens
