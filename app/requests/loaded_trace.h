#pragma once

#include "core/sim/baseline.h"
#include "core/trace/capture_side_file.h"
#include "core/trace/program.h"
#include "core/trace/trace_completeness.h"

#include <memory>
#include <optional>
#include <string>

namespace rematlens {

// A trace read for a request: its program, baseline and display name, and what its capture's
// side file and the check of its end say.
struct LoadedTrace {
    std::shared_ptr<const Program> program;
    Baseline baseline;
    std::string name; // as shown in records
    std::optional<CaptureSideFile> sideFile;    // the capture's side file beside the trace
    std::string sideFileProblem;                // a side file there that cannot be used: why
    TraceCompleteness completeness;
};

// Reads the trace (or :demo), its side file and its baseline; reports a read error (naming the
// file and line) to the reporter in force and returns nothing. A trace that ends early gets a
// one-line warning, or under strict traces (setStrictTraces) an error and nothing.
std::optional<LoadedTrace> loadWithBaseline(const std::string &trace);

// --strict of the commands that read traces: a trace that ends early is an error, not a warning.
void setStrictTraces(bool strict);

} // namespace rematlens
