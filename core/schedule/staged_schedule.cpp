#include "staged_schedule.h"

namespace rematlens {

namespace {

bool computedLaterInStage(const StagedSchedule &s, const ScheduleNode &node, NodeId after, std::size_t t)
{
    for (NodeId j : node.users)
        if (j > after && j <= t && s.recompute[t][j])
            return true;
    return false;
}

} // namespace

StagedSchedule StagedSchedule::empty(std::size_t nodes)
{
    StagedSchedule s;
    for (std::size_t t = 0; t < nodes; ++t) {
        s.recompute.emplace_back(t + 1, 0);
        s.recompute.back()[t] = 1;
        s.keep.emplace_back(t, 0);
    }
    return s;
}

StagedSchedule StagedSchedule::computeOnce(const ScheduleGraph &graph)
{
    StagedSchedule s = empty(graph.size());
    for (std::size_t t = 0; t < graph.size(); ++t)
        for (NodeId i = 0; i < t; ++i) {
            const ScheduleNode &node = graph.node(i);
            s.keep[t][i] = node.output || (!node.users.empty() && node.users.back() >= t) ? 1 : 0;
        }
    return s;
}

std::optional<StagedSchedule> StagedSchedule::fromSchedule(const ScheduleGraph &graph, const Schedule &schedule)
{
    const std::size_t n = graph.size();
    StagedSchedule s = empty(n);
    std::vector<std::uint8_t> resident(n, 0);
    NodeId frontier = 0;   // the stage being filled
    bool stageOpen = true; // false between a stage's last computation and the next stage's first
    for (const ScheduleStep &step : schedule) {
        if (step.node >= n)
            return std::nullopt;
        if (step.kind == ScheduleStep::Kind::Free) {
            resident[step.node] = 0;
            continue;
        }
        if (!stageOpen) { // the next stage starts with what is resident now
            if (frontier >= n)
                return std::nullopt;
            for (NodeId i = 0; i < frontier; ++i)
                s.keep[frontier][i] = resident[i];
            stageOpen = true;
        }
        if (step.node > frontier)
            return std::nullopt;
        s.recompute[frontier][step.node] = 1;
        resident[step.node] = 1;
        if (step.node == frontier) {
            ++frontier;
            stageOpen = false;
        }
    }
    if (frontier != n)
        return std::nullopt;
    return s;
}

Schedule StagedSchedule::toSchedule(const ScheduleGraph &graph) const
{
    const std::size_t n = graph.size();
    std::vector<std::uint8_t> resident(n, 0);
    Schedule out;
    for (std::size_t t = 0; t < n; ++t) {
        auto keptAfter = [&](NodeId i) {
            return t + 1 < n ? keep[t + 1][i] != 0 : graph.node(i).output;
        };
        auto release = [&](NodeId i, NodeId at) {
            if (resident[i] && !keptAfter(i) && !computedLaterInStage(*this, graph.node(i), at, t)) {
                out.push_back({ScheduleStep::Kind::Free, i});
                resident[i] = 0;
            }
        };
        for (NodeId k = 0; k <= t; ++k) {
            if (!recompute[t][k])
                continue;
            if (!resident[k]) {
                out.push_back({ScheduleStep::Kind::Compute, k});
                resident[k] = 1;
            }
            for (NodeId d : graph.node(k).deps)
                release(d, k);
            release(k, k);
        }
        for (NodeId i = 0; i <= t; ++i)
            if (resident[i] && !keptAfter(i)) {
                out.push_back({ScheduleStep::Kind::Free, i});
                resident[i] = 0;
            }
    }
    return out;
}

} // namespace rematlens
