#include "schedule_graph.h"

#include <algorithm>

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
    std::vector<NodeId> nodeOfOp(program.ops.size(), kNone);
    for (OpId o = 0; o < program.ops.size(); ++o) {
        const OpInfo &op = program.ops[o];
        if (isPinnedConstant(program, op)) {
            graph.m_fixedBytes += op.totalSize;
            continue;
        }
        ScheduleNode node;
        node.op = o;
        node.bytes = op.totalSize;
        node.cost = op.cost;
        node.backward = op.isBackward;
        const NodeId self = static_cast<NodeId>(graph.m_nodes.size());
        for (std::uint32_t a = 0; a < op.argCount; ++a) {
            const TensorId arg = program.args[op.firstArg + a];
            const TensorId owner = program.storages[program.storageOf(arg)].root;
            for (TensorId t : {arg, owner}) {
                const NodeId dep = nodeOfOp[program.tensors[t].op];
                if (dep != kNone && dep != self)
                    node.deps.push_back(dep);
            }
        }
        // An alias output lives in an argument's storage: that storage's owner must stay with it.
        sortUnique(node.deps);
        nodeOfOp[o] = self;
        graph.m_totalCost += node.cost;
        graph.m_nodes.push_back(std::move(node));
    }
    for (const Step &step : program.schedule) {
        if (step.kind != StepKind::Pin || step.line != 0)
            continue; // only the final pins mark outputs (constants are pinned at creation)
        const TensorId owner = program.storages[program.storageOf(step.id)].root;
        for (TensorId t : {step.id, owner})
            if (const NodeId n = nodeOfOp[program.tensors[t].op]; n != kNone)
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

} // namespace rematlens
