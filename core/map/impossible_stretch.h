#pragma once

#include "budget_walker.h"
#include "byte_range.h"

#include "../sim/fit_floor.h"

#include <optional>

namespace rematlens {

// The budgets of `range` that no replay can pass (below fitFloor), as one interval of
// Outcome::Impossible, or nothing when the range starts at or above the floor (or the runtime
// has none). It ends where the interval holding the floor begins (one replay at the floor says
// where), so the intervals replayed above it stay exactly those a map replaying every budget
// finds, and the map still tiles the range. Nothing when that replay does not resolve
// (a wall limit, or *cancel).
std::optional<RunResult> impossibleStretch(const Program &program, const RunConfig &config, ByteRange range,
                                           const BudgetWalker &walker, const std::atomic<bool> *cancel = nullptr);

} // namespace rematlens
