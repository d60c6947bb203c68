#pragma once

#include "schedule_executor.h"

#include <string>
#include <vector>

namespace rematlens {

// One choice of checkpoints, its schedule and what running it costs.
struct CheckpointPlan {
    std::string rule;          // "sqrt-n" or "greedy"
    Bytes segmentBytes = 0;    // the greedy rule's segment budget B
    std::vector<NodeId> checkpoints;
    ScheduleEvaluation evaluation;
};

// The checkpoint choices of Chen et al. (2016). Candidates are the forward nodes that split the
// forward graph: no forward edge jumps over them (for a chain, every node). The sqrt(N) rule keeps
// every k-th candidate with k = floor(sqrt(candidates)); the greedy rule (the paper's memory
// planning with budget B) walks the forward nodes accumulating their bytes and makes a candidate
// a checkpoint whenever the sum passes B, then starts over. The paper searches B on a grid; so
// does greedyFamily, and the cheapest plan that fits a budget answers for it.
class CheckpointPlanner {
public:
    explicit CheckpointPlanner(const ScheduleGraph &graph);

    const std::vector<NodeId> &candidates() const { return m_candidates; }
    CheckpointPlan sqrtN() const;
    CheckpointPlan greedy(Bytes segmentBytes) const;
    // Greedy plans over a geometric grid of B (distinct checkpoint sets only).
    std::vector<CheckpointPlan> greedyFamily(int gridPoints = 64) const;

    // The valid plan of least cost whose peak fits the budget, or nullptr.
    static const CheckpointPlan *cheapestWithin(const std::vector<CheckpointPlan> &plans, Bytes budget);

private:
    CheckpointPlan evaluate(std::string rule, Bytes segmentBytes, std::vector<NodeId> checkpoints) const;

    const ScheduleGraph &m_graph;
    std::vector<NodeId> m_candidates;
};

} // namespace rematlens
