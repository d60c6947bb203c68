#include "checkpoint_planner.h"

#include "checkpoint_scheduler.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace rematlens {

CheckpointPlanner::CheckpointPlanner(const ScheduleGraph &graph) : m_graph(graph)
{
    NodeId reachedSoFar = 0; // the furthest forward user of any forward node seen so far
    for (NodeId v = 0; v < graph.size(); ++v) {
        const ScheduleNode &node = graph.node(v);
        if (node.backward)
            break;
        if (reachedSoFar <= v)
            m_candidates.push_back(v);
        for (NodeId u : node.users)
            if (!graph.node(u).backward)
                reachedSoFar = std::max(reachedSoFar, u);
    }
}

CheckpointPlan CheckpointPlanner::evaluate(std::string rule, Bytes segmentBytes, std::vector<NodeId> checkpoints) const
{
    CheckpointPlan plan{std::move(rule), segmentBytes, std::move(checkpoints), {}};
    plan.evaluation = ScheduleExecutor(m_graph).run(CheckpointScheduler(m_graph).build(plan.checkpoints));
    return plan;
}

CheckpointPlan CheckpointPlanner::sqrtN() const
{
    const std::size_t k = std::max<std::size_t>(1, static_cast<std::size_t>(std::sqrt(double(m_candidates.size()))));
    std::vector<NodeId> checkpoints;
    for (std::size_t i = k - 1; i < m_candidates.size(); i += k)
        checkpoints.push_back(m_candidates[i]);
    return evaluate("sqrt-n", 0, std::move(checkpoints));
}

CheckpointPlan CheckpointPlanner::greedy(Bytes segmentBytes) const
{
    std::vector<NodeId> checkpoints;
    std::size_t next = 0; // the next candidate
    Bytes temp = 0;
    for (NodeId v = 0; v < m_graph.size() && !m_graph.node(v).backward; ++v) {
        temp += m_graph.node(v).bytes;
        const bool candidate = next < m_candidates.size() && m_candidates[next] == v;
        if (candidate)
            ++next;
        if (candidate && temp > segmentBytes) {
            checkpoints.push_back(v);
            temp = 0;
        }
    }
    return evaluate("greedy", segmentBytes, std::move(checkpoints));
}

std::vector<CheckpointPlan> CheckpointPlanner::greedyFamily(int gridPoints) const
{
    Bytes forwardBytes = 0;
    for (const ScheduleNode &n : m_graph.nodes())
        if (!n.backward)
            forwardBytes += n.bytes;
    std::vector<CheckpointPlan> plans;
    std::set<std::vector<NodeId>> seen;
    const double top = std::max<double>(2.0, double(forwardBytes));
    for (int i = 0; i <= gridPoints; ++i) {
        const Bytes b = i == 0 ? 0 : static_cast<Bytes>(std::pow(top, double(i) / gridPoints));
        CheckpointPlan plan = greedy(b);
        if (seen.insert(plan.checkpoints).second)
            plans.push_back(std::move(plan));
    }
    return plans;
}

const CheckpointPlan *CheckpointPlanner::cheapestWithin(const std::vector<CheckpointPlan> &plans, Bytes budget)
{
    const CheckpointPlan *best = nullptr;
    for (const CheckpointPlan &p : plans)
        if (p.evaluation.valid && p.evaluation.peak <= budget && (!best || p.evaluation.cost < best->evaluation.cost))
            best = &p;
    return best;
}

} // namespace rematlens
