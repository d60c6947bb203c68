#include "schedule_executor.h"

#include <algorithm>

namespace rematlens {

namespace {

ScheduleEvaluation invalid(std::size_t step, std::string what)
{
    ScheduleEvaluation e;
    e.error = "step " + std::to_string(step) + ": " + std::move(what);
    return e;
}

} // namespace

Schedule ScheduleExecutor::computeOnce(const ScheduleGraph &graph)
{
    const std::size_t n = graph.size();
    std::vector<std::vector<NodeId>> freedAfter(n);
    for (NodeId i = 0; i < n; ++i) {
        const ScheduleNode &node = graph.node(i);
        if (!node.output)
            freedAfter[node.users.empty() ? i : node.users.back()].push_back(i);
    }
    Schedule out;
    for (NodeId k = 0; k < n; ++k) {
        out.push_back({ScheduleStep::Kind::Compute, k});
        for (NodeId i : freedAfter[k])
            out.push_back({ScheduleStep::Kind::Free, i});
    }
    return out;
}

ScheduleEvaluation ScheduleExecutor::run(const Schedule &schedule) const
{
    const std::size_t n = m_graph.size();
    std::vector<std::uint8_t> resident(n, 0);
    std::vector<std::uint8_t> computed(n, 0);
    ScheduleEvaluation e;
    Bytes memory = m_graph.fixedBytes();
    e.peak = memory;
    for (std::size_t s = 0; s < schedule.size(); ++s) {
        const ScheduleStep &step = schedule[s];
        if (step.node >= n)
            return invalid(s, "node " + std::to_string(step.node) + " is not in the graph");
        const ScheduleNode &node = m_graph.node(step.node);
        if (step.kind == ScheduleStep::Kind::Free) {
            if (!resident[step.node])
                return invalid(s, "frees node " + std::to_string(step.node) + ", which is not resident");
            resident[step.node] = 0;
            memory -= node.bytes;
            continue;
        }
        if (resident[step.node])
            return invalid(s, "computes node " + std::to_string(step.node) + ", which is already resident");
        for (NodeId d : node.deps)
            if (!resident[d])
                return invalid(s, "computes node " + std::to_string(step.node) + " without its input "
                                      + std::to_string(d));
        memory += node.bytes;
        e.peak = std::max(e.peak, memory);
        e.cost += node.cost;
        ++e.computes;
        resident[step.node] = 1;
        computed[step.node] = 1;
    }
    for (NodeId i = 0; i < n; ++i) {
        if (!computed[i])
            return invalid(schedule.size(), "node " + std::to_string(i) + " is never computed");
        if (m_graph.node(i).output && !resident[i])
            return invalid(schedule.size(), "output node " + std::to_string(i) + " is not resident at the end");
    }
    e.valid = true;
    e.overhead = m_graph.totalCost() > 0 ? static_cast<double>(e.cost) / static_cast<double>(m_graph.totalCost()) : 1.0;
    return e;
}

} // namespace rematlens
