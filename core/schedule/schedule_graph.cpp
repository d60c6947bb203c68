#include "schedule_graph.h"

#include <algorithm>
#include <array>

namespace rematlens {

namespace {

// A CONSTANT instruction: pinned from its creation, so fixed memory rather than a node.
bool isPinnedConstant(const Program &program, const OpInfo &op)
{
    return op.outputCount == 1 && op.argCount == 0 && program.storages[program.tensors[op.firstOutput].storage].constant;
}

void sortUnique(std::vector<NodeId> &ids)
{
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
}

} // namespace

ScheduleGraph ScheduleGraph::fromProgram(const Program &program)
{
    ScheduleGraph graph;
    std::vector<NodeId> nodeOfTensor(program.tensors.size(), kNone);
    // The nodes a read of tensor t needs: the one that made t and the one that holds its storage.
    auto readers = [&](TensorId t) {
        return std::array<NodeId, 2>{nodeOfTensor[t], nodeOfTensor[program.storages[program.storageOf(t)].root]};
    };
    for (OpId o = 0; o < program.ops.size(); ++o) {
        const OpInfo &op = program.ops[o];
        if (isPinnedConstant(program, op)) {
            graph.m_fixedBytes += op.totalSize;
            continue;
        }
        ScheduleNode primary;
        primary.op = o;
        primary.cost = op.cost;
        primary.backward = op.isBackward;
        for (std::uint32_t a = 0; a < op.argCount; ++a)
            for (NodeId dep : readers(program.args[op.firstArg + a]))
                if (dep != kNone)
                    primary.deps.push_back(dep);
        sortUnique(primary.deps);
        const NodeId primaryId = static_cast<NodeId>(graph.m_nodes.size());
        graph.m_totalCost += primary.cost;
        graph.m_nodes.push_back(primary);
        // The first non-alias output lives in the primary node; every further one gets a node of
        // its own, computed with it (free, given the primary) so that it can be freed on its own.
        bool first = true;
        for (TensorId t = op.firstOutput; t < op.firstOutput + op.outputCount; ++t) {
            const TensorInfo &tensor = program.tensors[t];
            if (tensor.isAlias || first) {
                nodeOfTensor[t] = primaryId;
                if (!tensor.isAlias) {
                    graph.m_nodes[primaryId].bytes = tensor.size;
                    first = false;
                }
                continue;
            }
            ScheduleNode secondary;
            secondary.op = o;
            secondary.bytes = tensor.size;
            secondary.backward = op.isBackward;
            secondary.deps = graph.m_nodes[primaryId].deps;
            secondary.deps.push_back(primaryId);
            nodeOfTensor[t] = static_cast<NodeId>(graph.m_nodes.size());
            graph.m_nodes.push_back(std::move(secondary));
        }
    }
    for (const Step &step : program.schedule) {
        if (step.kind != StepKind::Pin || step.line != 0)
            continue; // only the final pins mark outputs (constants are pinned at creation)
        for (NodeId n : readers(step.id))
            if (n != kNone)
                graph.m_nodes[n].output = true;
    }
    graph.linkUsers();
    return graph;
}

ScheduleGraph ScheduleGraph::fromNodes(std::vector<ScheduleNode> nodes, Bytes fixedBytes)
{
    ScheduleGraph graph;
    graph.m_nodes = std::move(nodes);
    graph.m_fixedBytes = fixedBytes;
    for (ScheduleNode &n : graph.m_nodes) {
        sortUnique(n.deps);
        n.users.clear();
        graph.m_totalCost += n.cost;
    }
    graph.linkUsers();
    return graph;
}

void ScheduleGraph::linkUsers()
{
    for (NodeId i = 0; i < m_nodes.size(); ++i)
        for (NodeId d : m_nodes[i].deps)
            m_nodes[d].users.push_back(i); // i grows, so users stay sorted
}

std::size_t ScheduleGraph::edgeCount() const
{
    std::size_t edges = 0;
    for (const ScheduleNode &n : m_nodes)
        edges += n.deps.size();
    return edges;
}

Bytes ScheduleGraph::fitFloor() const
{
    Bytes largest = 0;
    for (const ScheduleNode &node : m_nodes) {
        Bytes needed = node.bytes;
        for (NodeId dep : node.deps) // distinct, by construction
            needed += m_nodes[dep].bytes;
        largest = std::max(largest, needed);
    }
    return m_fixedBytes + largest;
}

} // namespace rematlens
