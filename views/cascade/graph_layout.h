#pragma once

#include <QPainterPath>
#include <QPointF>
#include <QRectF>
#include <QSizeF>
#include <QString>

#include <utility>
#include <vector>

namespace rematlens {

// Graphviz's "dot" layout of a directed graph whose boxes we draw ourselves: node sizes go in,
// node centres and edge splines come back, all in points with y pointing down. Graphviz (C) is
// wrapped here only: contexts and graphs are freed on every path, its messages are collected
// instead of printed, and calls are serialised because it keeps global state.
class GraphLayout {
public:
    struct Options {
        bool leftToRight = false;  // ranks top to bottom otherwise
        qreal nodeSeparation = 12; // points
        qreal rankSeparation = 24; // points
    };
    struct Edge {
        int from = 0;
        int to = 0;
    };
    struct Result {
        bool ok = false;
        QString error;                                       // what graphviz said when it failed
        QRectF bounds;                                       // of the whole drawing, origin at the top left
        std::vector<QPointF> centres;                        // per node
        std::vector<QPainterPath> paths;                     // per edge, from its tail to where the arrowhead begins
        std::vector<std::pair<QPointF, QPointF>> arrowheads; // per edge: base and tip (equal: none)
    };

    static Result layout(const std::vector<QSizeF> &nodeSizes, const std::vector<Edge> &edges, const Options &options);
    static Result layout(const std::vector<QSizeF> &nodeSizes, const std::vector<Edge> &edges)
    {
        return layout(nodeSizes, edges, Options());
    }
};

} // namespace rematlens
