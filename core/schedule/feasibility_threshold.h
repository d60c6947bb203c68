#pragma once

#include "checkmate_milp.h"

namespace rematlens {

// The smallest budget at which some schedule fits, bracketed by proven results: every budget
// below `provenInfeasible + 1` has no schedule, `provenFeasible` has one. Exact when the two meet
// (`exact`); an unknown answer (time limit) stops the search with the bracket found so far.
struct FeasibilityThreshold {
    Bytes provenInfeasible = 0; // the largest budget proven to have no schedule
    Bytes provenFeasible = 0;   // the smallest budget with a schedule found (and checked)
    bool exact = false;
    int probes = 0;
    double seconds = 0;
};

// Binary search over budgets, in the MILP's memory unit, between the largest single computation
// (fixed memory plus a node and its inputs: below it nothing fits) and the peak of computing
// everything once (it always fits). Each probe is a feasibility solve under the time limit whose
// schedule, if any, is run by the executor before it counts.
class ThresholdSearch {
public:
    explicit ThresholdSearch(const ScheduleGraph &graph) : m_graph(graph) {}

    FeasibilityThreshold run(double timeLimitPerProbe) const;

private:
    const ScheduleGraph &m_graph;
};

} // namespace rematlens
