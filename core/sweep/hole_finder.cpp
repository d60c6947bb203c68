#include "hole_finder.h"

namespace rematlens {

HoleReport findHoles(const std::vector<BudgetOutcome> &grid)
{
    HoleReport report;
    const std::size_t n = grid.size();
    for (std::size_t i = 0; i < n; ++i)
        if (grid[i].outcome == Outcome::Pass) {
            report.firstSuccess = i;
            break;
        }
    if (!report.firstSuccess)
        return report;
    for (std::size_t i = n; i > 0 && grid[i - 1].outcome == Outcome::Pass; --i)
        report.stableFrom = i - 1;
    for (std::size_t i = *report.firstSuccess + 1; i < n; ++i)
        if (isFailure(grid[i].outcome))
            report.failuresAboveFirstSuccess.push_back(i);

    // Walk the runs of non-passing budgets that start right after a pass. Only a run of failures
    // alone is a hole: a budget not run, not mapped or timed out may pass, so a run holding one
    // has no known bounds and is reported as undecided instead.
    std::size_t i = *report.firstSuccess + 1;
    while (i < n) {
        if (grid[i].outcome == Outcome::Pass) {
            ++i;
            continue;
        }
        const std::size_t start = i;
        bool unresolved = false;
        while (i < n && grid[i].outcome != Outcome::Pass) {
            unresolved = unresolved || !isResolved(grid[i].outcome);
            ++i;
        }
        if (i == n)
            break; // no pass above: the tail, not a hole
        if (unresolved)
            report.unresolvedGaps.emplace_back(start, i - 1);
        else
            report.holes.push_back(Hole{start, i - 1, start - 1, i});
    }
    return report;
}

} // namespace rematlens
