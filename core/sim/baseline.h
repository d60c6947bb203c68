#pragma once

#include "../trace/program.h"

namespace rematlens {

// The trace replayed with no budget, as simrd measures it (banishing runtime, unlimited memory).
struct Baseline {
    Bytes memory = 0;      // peak memory in use
    Cost compute = 0;      // total model compute
    Bytes constMemory = 0; // summed size of the constants
    Bytes bottleneck = 0;  // largest operator output plus its arguments' outputs
    double seconds = 0;
};

Baseline computeBaseline(const Program &program);

// simrd's int(baseline_memory * ratio): a double product, truncated.
Bytes budgetForRatio(const Baseline &baseline, double ratio);

// A budget as a share of the baseline's peak memory (0 for a baseline that holds none), as
// reports print it.
double ratioOfBaseline(const Baseline &baseline, Bytes budget);

// simrd's remat_limit = baseline_compute * (overhead_limit - 1), a double.
double rematLimitFor(const Baseline &baseline, double overheadLimit);

} // namespace rematlens
