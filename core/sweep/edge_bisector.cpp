#include "edge_bisector.h"

namespace rematlens {

BudgetEdge bisectEdge(Bytes low, Outcome lowOutcome, Bytes high, Outcome highOutcome,
                      const std::function<Outcome(Bytes)> &run)
{
    BudgetEdge edge{low, lowOutcome, high, highOutcome, false, 0};
    const bool lowPasses = lowOutcome == Outcome::Pass;
    while (edge.above - edge.below > 1) {
        const Bytes middle = edge.below + (edge.above - edge.below) / 2;
        const Outcome outcome = run(middle);
        ++edge.runs;
        if (!isResolved(outcome))
            return edge; // a timeout: the edge stays somewhere in [below, above]
        if ((outcome == Outcome::Pass) == lowPasses) {
            edge.below = middle;
            edge.belowOutcome = outcome;
        } else {
            edge.above = middle;
            edge.aboveOutcome = outcome;
        }
    }
    edge.resolved = true;
    return edge;
}

} // namespace rematlens
