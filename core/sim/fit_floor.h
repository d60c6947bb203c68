#pragma once

#include "run_config.h"
#include "run_result.h"

#include "../trace/program.h"

#include <optional>

namespace rematlens {

// The smallest budget a replay of the program can possibly pass, whatever the eviction policy,
// and the operator that demands it. Sound for the eager and lazy runtimes: when operator k
// runs, memory in use holds every constant created so far (pinned, never evicted) and the
// distinct storages of k's arguments (locked), and the comparison adds k's whole output size;
// evicting everything else cannot get below that, so any budget under the largest such sum
// runs out of memory (or over the compute limit earlier). The banishing runtime may banish
// constants and rewires parents, so it has no floor here (nullopt).
struct FitFloor {
    Bytes bytes = 0;          // budgets below this cannot pass
    std::size_t step = 0;     // the Compute step of the operator that demands it
    Bytes constants = 0;      // resident constants when it runs
    Bytes arguments = 0;      // its distinct non-constant argument storages
    Bytes outputs = 0;        // its total output size
};

std::optional<FitFloor> fitFloor(const Program &program, RuntimeKind runtime);

// What the map and sweeps report for budgets [lo, floor.bytes) without replaying:
// Outcome::Impossible, with the operator that cannot fit as its failure (bytes short at lo).
RunResult impossibleResult(const Program &program, const FitFloor &floor, BudgetInterval interval);

} // namespace rematlens
