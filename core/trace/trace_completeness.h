#pragma once

#include "capture_side_file.h"
#include "program.h"

#include <string>

namespace rematlens {

// Whether a trace records a whole training step or ends early (a capture that failed half-way,
// a file cut short at a line boundary, a side file left from another capture). Reading such a
// trace succeeds, so the reader says so beside the program.
struct TraceCompleteness {
    std::string problem;        // why the trace looks truncated, one sentence; empty when complete

    bool complete() const { return problem.empty(); }
};

// A trace without a side file is judged by its own lines: a training step has a backward pass
// (a BACKWARD annotation or operators named *backward*). With the capture's side file the test
// is exact: the side file must name only tensors of the trace, and a complete step releases
// every name but the weights, buffers, gradients and optimizer state.
TraceCompleteness assessCompleteness(const Program &program, const CaptureSideFile *sideFile);

} // namespace rematlens
