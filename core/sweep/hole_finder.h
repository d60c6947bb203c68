#pragma once

#include "../sim/run_result.h"

#include <optional>
#include <vector>

namespace rematlens {

// The outcome of one budget of a grid, in increasing budget order.
struct BudgetOutcome {
    double ratio = 0;
    Bytes budget = 0;
    Outcome outcome = Outcome::Pass;
};

// A maximal run of failing budgets (out of memory or over the compute limit, nothing unknown
// among them) between a budget that passes right below it and one that passes right above it.
// Indices into the grid.
struct Hole {
    std::size_t firstFail = 0;      // first budget of the run
    std::size_t lastFail = 0;       // last budget of the run
    std::size_t lastPassBelow = 0;
    std::size_t firstPassAbove = 0;
};

struct HoleReport {
    std::optional<std::size_t> firstSuccess;   // lowest passing budget
    std::optional<std::size_t> stableFrom;     // lowest budget from which every budget passes
    std::vector<std::size_t> failuresAboveFirstSuccess;
    std::vector<Hole> holes;
    // Runs of non-passing budgets between passes that hold an unresolved budget (not run, not
    // mapped, timed out): neither hole nor pass until those budgets are known.
    std::vector<std::pair<std::size_t, std::size_t>> unresolvedGaps;
};

// Timeouts and cancelled (not run) budgets are unresolved: never counted as pass or fail, and
// never part of a hole.
HoleReport findHoles(const std::vector<BudgetOutcome> &grid);

} // namespace rematlens
