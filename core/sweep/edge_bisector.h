#pragma once

#include "../sim/run_result.h"

#include <functional>

namespace rematlens {

// Where between two budgets the result changes from failing to passing (or back), down to
// adjacent bytes. Feasibility is not monotone, so this finds one such edge, not all of them.
struct BudgetEdge {
    Bytes below = 0;                 // the last budget of the lower side
    Outcome belowOutcome = Outcome::Pass;
    Bytes above = 0;                 // the first budget of the upper side; above == below + 1 when resolved
    Outcome aboveOutcome = Outcome::Pass;
    bool resolved = false;           // false when a run in between timed out
    int runs = 0;                    // replays spent
};

// low and high must differ in class (pass versus failure). run(budget) replays one budget.
BudgetEdge bisectEdge(Bytes low, Outcome lowOutcome, Bytes high, Outcome highOutcome,
                      const std::function<Outcome(Bytes)> &run);

} // namespace rematlens
