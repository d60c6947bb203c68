#include "views/cascade/graph_layout.h"

#include <gvc.h>

#include <memory>
#include <mutex>
#include <string>

namespace rematlens {

namespace {

std::mutex g_graphvizMutex;
std::string g_graphvizMessages; // guarded by g_graphvizMutex

extern "C" int collectGraphvizMessage(char *message)
{
    g_graphvizMessages += message;
    return 0;
}

struct ContextDeleter {
    void operator()(GVC_t *context) const { gvFreeContext(context); }
};
struct GraphDeleter {
    void operator()(Agraph_t *graph) const { agclose(graph); }
};
using ContextPtr = std::unique_ptr<GVC_t, ContextDeleter>;
using GraphPtr = std::unique_ptr<Agraph_t, GraphDeleter>;

// The layout's data lives in the graph until gvFreeLayout; this frees it before the graph goes.
class LaidOutGraph {
public:
    LaidOutGraph(GVC_t *context, Agraph_t *graph) : m_context(context), m_graph(graph) {}
    ~LaidOutGraph() { gvFreeLayout(m_context, m_graph); }
    LaidOutGraph(const LaidOutGraph &) = delete;
    LaidOutGraph &operator=(const LaidOutGraph &) = delete;

private:
    GVC_t *m_context;
    Agraph_t *m_graph;
};

// Graphviz's message level and handler are global: ours while a layout runs, the old ones after.
class MessageCapture {
public:
    MessageCapture() : m_level(agseterr(AGERR)), m_handler(agseterrf(collectGraphvizMessage))
    {
        g_graphvizMessages.clear();
    }
    ~MessageCapture()
    {
        agseterr(m_level);
        agseterrf(m_handler);
    }
    MessageCapture(const MessageCapture &) = delete;
    MessageCapture &operator=(const MessageCapture &) = delete;

private:
    agerrlevel_t m_level;
    agusererrf m_handler;
};

void set(void *object, const char *name, const std::string &value)
{
    agsafeset(object, const_cast<char *>(name), const_cast<char *>(value.c_str()), const_cast<char *>(""));
}

// "n12": built by appending (operator+ on a literal trips GCC 12's spurious -Wrestrict).
std::string numbered(char prefix, std::size_t i)
{
    std::string name(1, prefix);
    name += std::to_string(i);
    return name;
}

std::string inches(qreal points)
{
    return std::to_string(points / 72.0);
}

// Graphviz has y pointing up; ours points down.
QPointF toQt(pointf p, const boxf &bb)
{
    return {p.x - bb.LL.x, bb.UR.y - p.y};
}

void readEdge(Agedge_t *edge, const boxf &bb, GraphLayout::Result &result)
{
    QPainterPath path;
    std::pair<QPointF, QPointF> arrow;
    const splines *spl = ED_spl(edge);
    if (spl && spl->size > 0) {
        const bezier &bz = spl->list[0];
        if (bz.size > 0) {
            path.moveTo(toQt(bz.list[0], bb));
            for (int i = 1; i + 2 < bz.size; i += 3)
                path.cubicTo(toQt(bz.list[i], bb), toQt(bz.list[i + 1], bb), toQt(bz.list[i + 2], bb));
            const QPointF end = toQt(bz.list[bz.size - 1], bb);
            arrow = bz.eflag ? std::make_pair(end, toQt(bz.ep, bb)) : std::make_pair(end, end);
        }
    }
    result.paths.push_back(path);
    result.arrowheads.push_back(arrow);
}

} // namespace

GraphLayout::Result GraphLayout::layout(const std::vector<QSizeF> &nodeSizes, const std::vector<Edge> &edges,
                                        const Options &options)
{
    Result result;
    if (nodeSizes.empty()) {
        result.ok = true;
        return result;
    }
    const std::lock_guard<std::mutex> lock(g_graphvizMutex);
    const MessageCapture capture;
    ContextPtr context(gvContext());
    GraphPtr graph(agopen(const_cast<char *>("cascade"), Agdirected, nullptr));
    if (!context || !graph) {
        result.error = QStringLiteral("graphviz could not start");
        return result;
    }
    set(graph.get(), "rankdir", options.leftToRight ? "LR" : "TB");
    set(graph.get(), "nodesep", inches(options.nodeSeparation));
    set(graph.get(), "ranksep", inches(options.rankSeparation));
    std::vector<Agnode_t *> nodes;
    for (std::size_t i = 0; i < nodeSizes.size(); ++i) {
        Agnode_t *node = agnode(graph.get(), const_cast<char *>(numbered('n', i).c_str()), 1);
        set(node, "shape", "box");
        set(node, "fixedsize", "true");
        set(node, "label", "");
        set(node, "width", inches(nodeSizes[i].width()));
        set(node, "height", inches(nodeSizes[i].height()));
        nodes.push_back(node);
    }
    std::vector<Agedge_t *> graphEdges;
    for (std::size_t i = 0; i < edges.size(); ++i) {
        const Edge &e = edges[i];
        const bool valid = e.from >= 0 && e.to >= 0 && static_cast<std::size_t>(e.from) < nodes.size() &&
                           static_cast<std::size_t>(e.to) < nodes.size();
        if (!valid) {
            result.error = QStringLiteral("edge %1 joins a node that does not exist").arg(i);
            return result;
        }
        graphEdges.push_back(agedge(graph.get(), nodes[static_cast<std::size_t>(e.from)],
                                    nodes[static_cast<std::size_t>(e.to)], const_cast<char *>(numbered('e', i).c_str()),
                                    1));
    }
    if (gvLayout(context.get(), graph.get(), "dot") != 0) {
        result.error = QStringLiteral("graphviz could not lay the graph out: %1")
                           .arg(QString::fromStdString(g_graphvizMessages).trimmed());
        return result;
    }
    const LaidOutGraph laidOut(context.get(), graph.get());
    const boxf bb = GD_bb(graph.get());
    result.bounds = QRectF(0, 0, bb.UR.x - bb.LL.x, bb.UR.y - bb.LL.y);
    for (Agnode_t *node : nodes)
        result.centres.push_back(toQt(ND_coord(node), bb));
    for (Agedge_t *edge : graphEdges)
        readEdge(edge, bb, result);
    result.ok = true;
    return result;
}

} // namespace rematlens
