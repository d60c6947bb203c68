#pragma once

#include "checkmate_milp.h"
#include "checkpoint_planner.h"
#include "schedule_graph.h"

#include "../trace/program.h"

#include <memory>
#include <string>
#include <vector>

namespace rematlens {

// Static checkpointing at one budget: the better of the √N plan and the cheapest greedy plan
// that fits.
struct CheckpointAnswer {
    bool pass = false;
    std::string rule; // "sqrt-n" or "greedy": the plan that fits with less overhead (or, failing, √N)
    Bytes peak = 0;
    double overhead = 0;
    std::size_t checkpoints = 0;
};

// The optimum at one budget, as `rematlens optimal` finds it.
struct OptimalAnswer {
    SolveStatus status = SolveStatus::Unknown;
    double overhead = 0; // of the schedule found (Optimal, Feasible)
    double gap = 0;      // Feasible: how far from proven optimal
    double seconds = 0;
    bool checked = false; // the executor ran the schedule within the budget
    std::string declined; // not attempted, and why (the model is too large)
};

// What the strip's schedule rows ask of one trace, budget by budget: its schedule graph, the
// checkpoint plans (built once) and the MILP. Building it costs the greedy family's plans.
class BudgetSchedules {
public:
    // Past this many variables the MILP is not built: it would take gigabytes and hours.
    static constexpr std::size_t kMaxVariables = 4'000'000;

    explicit BudgetSchedules(const Program &program);
    BudgetSchedules(const BudgetSchedules &) = delete; // the planner and the MILP refer to m_graph
    BudgetSchedules &operator=(const BudgetSchedules &) = delete;

    CheckpointAnswer checkpoint(Bytes budget) const;
    OptimalAnswer optimal(Bytes budget, double timeLimitSeconds) const;
    // Why the MILP is out of reach on this trace (its size); empty when it is within reach.
    std::string optimalDeclined() const;

private:
    ScheduleGraph m_graph;
    std::unique_ptr<CheckpointPlanner> m_planner; // both refer to m_graph
    std::unique_ptr<CheckmateMilp> m_milp;
    CheckpointPlan m_sqrtN;
    std::vector<CheckpointPlan> m_greedy;
};

} // namespace rematlens
