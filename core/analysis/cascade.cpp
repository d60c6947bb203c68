#include "cascade.h"

#include <algorithm>
#include <deque>
#include <map>

namespace rematlens {

namespace {

using Kind = ReplayEvent::Kind;
constexpr std::size_t kNoNode = static_cast<std::size_t>(-1);

bool isMaterialization(const CascadeNode &node)
{
    return node.kind != CascadeNode::Kind::Evict && node.kind != CascadeNode::Kind::Release;
}

// The whole run as a graph: a node per materialization and eviction, plus the failure; edges
// from the order the replay records events in. Evictions on release make room for nothing, but
// what they free may have to be rematerialized later.
class FullGraph {
public:
    FullGraph(const Program &program, const RunRecording &recording, const RunResult &result) : m_program(program)
    {
        for (std::size_t i = 0; i < recording.events.size(); ++i)
            addEvent(recording.events[i], i);
        if (result.failure)
            addFailure(*result.failure, recording.events.size());
    }

    std::vector<CascadeNode> nodes;
    std::vector<CascadeEdge> edges;
    std::vector<std::vector<std::size_t>> causes; // per node: edges into it

private:
    std::size_t addNode(const CascadeNode &node)
    {
        nodes.push_back(node);
        causes.emplace_back();
        return nodes.size() - 1;
    }

    void addEdge(std::size_t from, std::size_t to, CascadeEdge::Kind kind)
    {
        causes[to].push_back(edges.size());
        edges.push_back(CascadeEdge{from, to, kind});
    }

    // Evictions recorded at a depth since that depth's last materialization made room for the
    // next one; nested remats (one deeper) finished since then were needed by it.
    void attachPending(std::size_t node, std::uint32_t depth)
    {
        for (std::size_t e : pendingAt(m_pendingEvictions, depth))
            addEdge(e, node, CascadeEdge::Kind::MadeRoomFor);
        for (std::size_t r : pendingAt(m_pendingNested, depth + 1))
            addEdge(r, node, CascadeEdge::Kind::NeededBy);
        m_pendingEvictions[depth].clear();
        m_pendingNested[depth + 1].clear();
    }

    static const std::vector<std::size_t> &pendingAt(std::map<std::uint32_t, std::vector<std::size_t>> &lists,
                                                     std::uint32_t depth)
    {
        return lists[depth];
    }

    void addEvent(const ReplayEvent &e, std::size_t index)
    {
        CascadeNode node;
        node.kind = e.kind == Kind::Evict   ? CascadeNode::Kind::Evict
                    : e.kind == Kind::Free  ? CascadeNode::Kind::Release
                    : e.kind == Kind::Remat ? CascadeNode::Kind::Remat
                                            : CascadeNode::Kind::Compute;
        node.event = index;
        node.tensor = e.tensor;
        node.bytes = e.bytes;
        node.depth = e.depth;
        node.step = e.step;
        node.clock = e.clock;
        const std::size_t id = addNode(node);
        const StorageId storage = m_program.storageOf(e.tensor);
        if (e.kind == Kind::Evict || e.kind == Kind::Free) {
            if (e.kind == Kind::Evict)
                m_pendingEvictions[e.depth].push_back(id);
            m_lastEviction[storage] = id;
            return;
        }
        attachPending(id, e.depth);
        if (e.kind == Kind::Remat) {
            if (const auto evicted = m_lastEviction.find(storage); evicted != m_lastEviction.end()) {
                addEdge(evicted->second, id, CascadeEdge::Kind::RematerializedAs);
                m_lastEviction.erase(evicted);
            }
            if (e.depth > 1)
                m_pendingNested[e.depth].push_back(id);
        }
    }

    void addFailure(const Failure &f, std::size_t index)
    {
        CascadeNode node;
        node.kind = CascadeNode::Kind::Failure;
        node.event = index;
        node.tensor = findTensor(f.tensor);
        node.bytes = f.bytesNeeded;
        node.bytesShort = f.bytesShort;
        node.depth = static_cast<std::uint32_t>(f.depth);
        node.step = static_cast<std::uint32_t>(f.step);
        node.clock = nodes.empty() ? 0 : nodes.back().clock;
        attachPending(addNode(node), node.depth);
    }

    TensorId findTensor(const std::string &name) const
    {
        for (TensorId t = 0; t < m_program.tensors.size(); ++t)
            if (m_program.tensors[t].name == name)
                return t;
        return 0;
    }

    const Program &m_program;
    std::map<std::uint32_t, std::vector<std::size_t>> m_pendingEvictions; // by depth
    std::map<std::uint32_t, std::vector<std::size_t>> m_pendingNested;    // by depth of the nested remat
    std::map<StorageId, std::size_t> m_lastEviction;                      // storages evicted and not yet back
};

std::size_t focusNode(const FullGraph &graph, const RunRecording &recording, const CascadeOptions &options)
{
    const auto &nodes = graph.nodes;
    if (options.focusEvent) {
        // The node of that event, or of the nearest recorded event before it.
        std::size_t best = kNoNode;
        for (std::size_t i = 0; i < nodes.size() && nodes[i].event <= *options.focusEvent; ++i)
            best = i;
        if (best != kNoNode)
            return best;
    }
    if (!nodes.empty() && nodes.back().kind == CascadeNode::Kind::Failure)
        return nodes.size() - 1;
    (void)recording;
    for (std::size_t i = nodes.size(); i-- > 0;)
        if (nodes[i].kind == CascadeNode::Kind::Remat)
            return i;
    return kNoNode;
}

// The focus's causes, nearest first: breadth-first over edges into each node, and for an
// eviction also the materialization it made room for (why it happened).
std::vector<std::uint8_t> selectNeighbourhood(const FullGraph &graph, std::size_t focus, std::size_t limit,
                                              std::size_t &leftOut)
{
    std::vector<std::uint8_t> chosen(graph.nodes.size(), 0);
    std::deque<std::size_t> queue{focus};
    chosen[focus] = 1;
    std::size_t materializations = 0;
    std::vector<std::size_t> reasonOf(graph.nodes.size(), kNoNode);
    for (const CascadeEdge &e : graph.edges)
        if (e.kind == CascadeEdge::Kind::MadeRoomFor)
            reasonOf[e.from] = e.to;
    const auto visit = [&](std::size_t n) {
        if (chosen[n])
            return;
        if (isMaterialization(graph.nodes[n]) && materializations >= limit) {
            ++leftOut;
            return;
        }
        materializations += isMaterialization(graph.nodes[n]);
        chosen[n] = 1;
        queue.push_back(n);
    };
    while (!queue.empty()) {
        const std::size_t n = queue.front();
        queue.pop_front();
        for (std::size_t e : graph.causes[n])
            visit(graph.edges[e].from);
        if (graph.nodes[n].kind == CascadeNode::Kind::Evict && reasonOf[n] != kNoNode)
            visit(reasonOf[n]);
    }
    return chosen;
}

} // namespace

Cascade buildCascade(const Program &program, const RunRecording &recording, const RunResult &result,
                     const CascadeOptions &options)
{
    const FullGraph graph(program, recording, result);
    Cascade cascade;
    const std::size_t focus = focusNode(graph, recording, options);
    if (focus == kNoNode)
        return cascade;
    const std::vector<std::uint8_t> chosen =
        selectNeighbourhood(graph, focus, options.materializations, cascade.materializationsLeftOut);
    std::vector<std::size_t> renumbered(graph.nodes.size(), kNoNode);
    for (std::size_t i = 0; i < graph.nodes.size(); ++i)
        if (chosen[i]) {
            renumbered[i] = cascade.nodes.size();
            cascade.nodes.push_back(graph.nodes[i]);
        }
    for (const CascadeEdge &e : graph.edges)
        if (chosen[e.from] && chosen[e.to])
            cascade.edges.push_back(CascadeEdge{renumbered[e.from], renumbered[e.to], e.kind});
    cascade.focus = renumbered[focus];
    return cascade;
}

std::string cascadeNodeKindName(CascadeNode::Kind kind)
{
    switch (kind) {
    case CascadeNode::Kind::Compute:
        return "compute";
    case CascadeNode::Kind::Remat:
        return "remat";
    case CascadeNode::Kind::Evict:
        return "evict";
    case CascadeNode::Kind::Release:
        return "release";
    case CascadeNode::Kind::Failure:
        return "failure";
    }
    return "?";
}

std::string cascadeEdgeKindName(CascadeEdge::Kind kind)
{
    switch (kind) {
    case CascadeEdge::Kind::MadeRoomFor:
        return "made room for";
    case CascadeEdge::Kind::RematerializedAs:
        return "rematerialized as";
    case CascadeEdge::Kind::NeededBy:
        return "needed by";
    }
    return "?";
}

} // namespace rematlens
