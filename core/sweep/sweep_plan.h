#pragma once

#include "../sim/baseline.h"
#include "../sim/run_request.h"
#include "decimal_grid.h"

#include <vector>

namespace rematlens {

// What every run of a sweep shares.
struct SweepSettings {
    std::string trace;                // display name
    std::vector<Policy> policies;
    RuntimeKind runtime = RuntimeKind::Eager;
    double overheadLimit = 2.0;
    std::uint64_t seed = 0;
    std::vector<TensorId> keepResident; // with their names, for the records
    std::vector<std::string> keep;
    AllocatorConfig allocator;
};

// One request per (policy, grid point), policy-major, in increasing budget order.
std::vector<RunRequest> planSweep(const SweepSettings &settings, const Baseline &baseline,
                                  const std::vector<GridPoint> &grid);

// One request per (policy, allocator model, grid point): policy-major, then model, then budget,
// so each (policy, model) pair is a row of the strip. `settings.allocator` is not used.
std::vector<RunRequest> planSweepRows(const SweepSettings &settings, const Baseline &baseline,
                                      const std::vector<GridPoint> &grid,
                                      const std::vector<AllocatorConfig> &allocators);

// A request for one budget in bytes (as edge searches need), with the ratio it stands for.
RunRequest planBudget(const SweepSettings &settings, const Policy &policy, const Baseline &baseline, Bytes budget);

} // namespace rematlens
