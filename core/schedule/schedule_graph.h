#pragma once

#include "../trace/program.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rematlens {

using NodeId = std::uint32_t;

// One operator of the trace as a scheduler sees it: computing it costs `cost` and allocates
// `bytes` (its first non-alias output); it reads the outputs of `deps`. An operator with more
// non-alias outputs has a node for each further one, of cost 0, that depends on the first.
struct ScheduleNode {
    OpId op = 0;
    Bytes bytes = 0;
    Cost cost = 0;
    bool backward = false;
    bool output = false;        // still referenced at the end of the trace: resident at the end
    std::vector<NodeId> deps;   // sorted, distinct, all smaller than the node's own id
    std::vector<NodeId> users;  // sorted, distinct, all larger
};

// The dataflow graph of a trace, in trace order (a topological order). Constants are fixed
// memory, not nodes. A tensor read through an alias depends on the node that allocated the
// storage as well as the one that made the alias, as the replay materializes storages whole.
// Copies only add names and mutations are new operators in the parsed program, so neither
// needs more: see docs/schedules.md for every simplification.
class ScheduleGraph {
public:
    static ScheduleGraph fromProgram(const Program &program);

    // Test graphs: nodes given directly (deps must point backwards); `fixedBytes` always resident.
    static ScheduleGraph fromNodes(std::vector<ScheduleNode> nodes, Bytes fixedBytes);

    const std::vector<ScheduleNode> &nodes() const { return m_nodes; }
    const ScheduleNode &node(NodeId id) const { return m_nodes[id]; }
    std::size_t size() const { return m_nodes.size(); }
    Bytes fixedBytes() const { return m_fixedBytes; }
    Cost totalCost() const { return m_totalCost; }
    std::size_t edgeCount() const;
    // No schedule of this graph fits a budget below this: computing a node needs its inputs and
    // its output resident at once, besides the fixed memory (the same count as the MILP's).
    Bytes fitFloor() const;

private:
    void linkUsers();

    std::vector<ScheduleNode> m_nodes;
    Bytes m_fixedBytes = 0;
    Cost m_totalCost = 0;
};

} // namespace rematlens
