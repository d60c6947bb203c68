#include "checkpoint_scheduler.h"

#include <algorithm>

namespace rematlens {

namespace {

constexpr NodeId kNever = 0xffffffffu;

} // namespace

CheckpointScheduler::CheckpointScheduler(const ScheduleGraph &graph) : m_graph(graph)
{
    const std::size_t n = graph.size();
    m_lastUse.resize(n);
    m_lastForwardUse.resize(n);
    for (NodeId i = 0; i < n; ++i) {
        const ScheduleNode &node = graph.node(i);
        m_lastUse[i] = node.users.empty() ? i : node.users.back();
        m_lastForwardUse[i] = i;
        for (NodeId u : node.users)
            if (!graph.node(u).backward)
                m_lastForwardUse[i] = u;
    }
}

// The state of one build: what is resident and when each resident node is released.
struct CheckpointScheduler::Build {
    const CheckpointScheduler &scheduler;
    std::vector<std::uint8_t> checkpoint;
    std::vector<NodeId> reach; // a checkpoint's last use through values recomputed from it
    std::vector<std::uint8_t> resident;
    std::vector<NodeId> releaseAt;
    std::vector<std::vector<NodeId>> releases; // by position in trace order
    Schedule out;

    NodeId releasePosition(NodeId u, NodeId position) const
    {
        const ScheduleNode &node = scheduler.m_graph.node(u);
        if (node.output)
            return kNever;
        NodeId last = scheduler.m_lastUse[u];
        if (checkpoint[u])
            last = reach[u];
        else if (!node.backward && !scheduler.m_graph.node(position).backward)
            last = scheduler.m_lastForwardUse[u]; // forward pass: drop it for the backward to recompute
        return std::max(last, position);
    }

    void compute(NodeId u, NodeId position)
    {
        out.push_back({ScheduleStep::Kind::Compute, u});
        resident[u] = 1;
        releaseAt[u] = releasePosition(u, position);
        if (releaseAt[u] != kNever)
            releases[releaseAt[u]].push_back(u);
    }

    // Computes v, first recomputing (depth first, in dependency order) whatever it needs.
    void ensure(NodeId v, NodeId position)
    {
        std::vector<std::pair<NodeId, std::size_t>> stack{{v, 0}};
        while (!stack.empty()) {
            auto &[node, next] = stack.back();
            const std::vector<NodeId> &deps = scheduler.m_graph.node(node).deps;
            if (next < deps.size()) {
                const NodeId d = deps[next++];
                if (!resident[d])
                    stack.emplace_back(d, 0);
                continue;
            }
            const NodeId done = node;
            stack.pop_back();
            compute(done, position);
        }
    }

    void releaseDue(NodeId position)
    {
        for (NodeId u : releases[position])
            if (resident[u] && releaseAt[u] == position) {
                out.push_back({ScheduleStep::Kind::Free, u});
                resident[u] = 0;
            }
        releases[position].clear();
    }
};

Schedule CheckpointScheduler::build(const std::vector<NodeId> &checkpoints) const
{
    const std::size_t n = m_graph.size();
    Build b{*this, std::vector<std::uint8_t>(n, 0), std::vector<NodeId>(n, 0), std::vector<std::uint8_t>(n, 0),
            std::vector<NodeId>(n, kNever), std::vector<std::vector<NodeId>>(n), {}};
    for (NodeId c : checkpoints)
        if (c < n)
            b.checkpoint[c] = 1;
    for (NodeId i = static_cast<NodeId>(n); i-- > 0;) {
        b.reach[i] = m_lastUse[i];
        for (NodeId u : m_graph.node(i).users)
            if (!m_graph.node(u).backward && !b.checkpoint[u])
                b.reach[i] = std::max(b.reach[i], b.reach[u]);
    }
    for (NodeId v = 0; v < n; ++v) {
        b.ensure(v, v);
        b.releaseDue(v);
    }
    return std::move(b.out);
}

} // namespace rematlens
