#pragma once

#include "staged_schedule.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace rematlens {

enum class SolveStatus { Optimal, Feasible, Infeasible, Unknown };
const char *solveStatusName(SolveStatus status);

struct MilpSize {
    std::size_t variables = 0;
    std::size_t integers = 0;
    std::size_t constraints = 0;
    std::size_t nonzeros = 0;
};

// The LP relaxation: a lower bound on the optimal cost (or a proof of infeasibility).
struct LpBound {
    bool feasible = false;
    bool timedOut = false; // the time limit stopped the LP: neither a bound nor a proof

    double cost = 0;
    double seconds = 0;
};

struct MilpSolution {
    SolveStatus status = SolveStatus::Unknown;
    double cost = 0;        // of the best schedule found (Optimal, Feasible)
    double bound = 0;       // the solver's best lower bound on the cost
    double gap = 0;         // (cost - bound) / cost
    double seconds = 0;
    std::optional<StagedSchedule> schedule;
    bool belowFitFloor = false; // Infeasible at once: the budget is under ScheduleGraph::fitFloor()
};

// Checkmate's mixed-integer program (Jain et al., MLSys 2020) for a graph and a memory budget,
// frontier-advancing: binary R[t][i] (node i computed in stage t), S[t][i] (i resident when stage
// t begins), FREE[t][i][k] (i freed right after computing k in stage t) and continuous U[t][k]
// (memory after computing k in stage t) bounded by the budget less the fixed memory. Minimizes
// the total cost of the computations. Solved with COIN-OR CBC. Memory is counted in units of the
// greatest common divisor of the nodes' sizes, which keeps every coefficient exact. The solver
// starts from the cheapest known schedule that fits (computing everything once, or one of the
// static checkpointing plans), so it has a schedule to improve from the start.
class CheckmateMilp {
public:
    explicit CheckmateMilp(const ScheduleGraph &graph);

    MilpSize size() const; // counted, not built
    // Both stop at their time limit (wall clock), the root LP included: a large model answers
    // Unknown or timedOut rather than running on.
    LpBound lpBound(Bytes budget, double timeLimitSeconds) const;
    // With `feasibilityOnly` the objective is dropped: the first schedule that fits ends the search.
    MilpSolution solve(Bytes budget, double timeLimitSeconds, bool feasibilityOnly = false) const;

private:
    struct Model;
    Model build(Bytes budget, bool withObjective) const;
    // The solver's columns for a staged schedule, or nothing when it does not fit the budget.
    std::optional<std::vector<double>> columnsOf(const StagedSchedule &staged, Bytes budget, double &cost) const;

    const ScheduleGraph &m_graph;
    Bytes m_unit = 1;
    std::vector<StagedSchedule> warmStarts() const;
    mutable std::vector<StagedSchedule> m_starts; // built at the first solve
};

} // namespace rematlens
