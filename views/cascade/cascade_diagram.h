#pragma once

#include "views/figure/figure_style.h"
#include "views/cascade/graph_layout.h"

#include "core/analysis/cascade.h"
#include "core/sim/run_request.h"
#include "core/trace/program.h"

#include <QRectF>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <set>
#include <vector>

class QPainter;

namespace rematlens {

// How a cascade is drawn (outside CascadeDiagram: GCC cannot default-construct a nested struct
// with member initialisers in a default argument of its enclosing class).
struct CascadeLook {
    // Above this many evictions into one box, all but the largest few fold into one box.
    std::size_t foldAbove = 8;
    std::size_t shownWhenFolded = 6;
    bool leftToRight = false; // time runs down the screen, or across a page
    qreal fontSize = 8;       // points: boxes are sized for it, so painting uses it too
};

// A cascade as boxes and arrows: what each box says, which crowds of evictions are folded into
// one box, and where graphviz put everything. Painting scales the drawing into any rectangle,
// so the widget and the exported figures share it.
class CascadeDiagram {
public:
    using Options = CascadeLook;
    // Tighter, for a page: fewer boxes per rank, time across.
    static Options figureOptions(qreal fontSize = 8) { return Options{4, 3, true, fontSize}; }

    struct Box {
        std::optional<std::size_t> node; // into Cascade::nodes; none for a folded crowd
        std::size_t foldedInto = 0;      // a crowd: the node its evictions made room for
        std::size_t foldedCount = 0;
        Bytes foldedBytes = 0;
        QStringList lines; // the first is the heading
        QSizeF size;       // points
        QPointF centre;    // points, in the layout
    };
    struct Arrow {
        std::size_t from = 0; // into boxes
        std::size_t to = 0;
        CascadeEdge::Kind kind = CascadeEdge::Kind::MadeRoomFor;
        QPainterPath path;
        std::pair<QPointF, QPointF> head;
    };

    CascadeDiagram() = default;
    CascadeDiagram(std::shared_ptr<const Program> program, Cascade cascade, QString title, QString subtitle,
                   Options options = {});
    // The cascade of a recorded run, titled with the run and what it ran out of.
    static CascadeDiagram forRun(std::shared_ptr<const Program> program, const RunRequest &request,
                                 const RunResult &result, const RunRecording &recording,
                                 const CascadeOptions &options = {}, Options look = {});

    bool isEmpty() const { return m_boxes.empty(); }
    const Cascade &cascade() const { return m_cascade; }
    const Program *program() const { return m_program.get(); }
    const std::vector<Box> &boxes() const { return m_boxes; }
    const std::vector<Arrow> &arrows() const { return m_arrows; }
    const QString &title() const { return m_title; }
    QString layoutError() const { return m_layoutError; }
    QSizeF layoutSize() const { return m_layoutBounds.size(); }
    const Options &options() const { return m_options; }

    // Unfolds the crowd of evictions into that cascade node (box of a folded crowd).
    void unfold(std::size_t node);
    bool isFolded(std::size_t node) const { return !m_unfolded.count(node); }

    // The same diagram, its unfolded crowds too, with boxes measured and laid out for another
    // text size: the window's is measured at the screen's, a figure's at the figure's.
    CascadeDiagram atFontSize(qreal fontSize) const;
    // The size a figure of this diagram wants at a given width (keeps boxes legible).
    QSizeF preferredSize(qreal width) const;
    // Where the boxes land when painted into bounds; nothing when there is no drawing.
    std::optional<std::size_t> boxAt(const QRectF &bounds, const QPointF &point) const;
    void paint(QPainter &painter, const QRectF &bounds, const FigureStyle &style) const;
    QString csv() const;

private:
    struct Placement {
        qreal scale = 1;
        QPointF origin; // of the layout, in painter coordinates
    };
    void rebuild();
    void addBoxes(std::vector<int> &boxOfNode);
    void addArrows(const std::vector<int> &boxOfNode);
    void runLayout();
    QStringList linesFor(const CascadeNode &node) const;
    FigureStyle measuringStyle() const;
    // The title's and the subtitle's lines in a figure's bounds, and the height they take.
    QStringList titleLines(const FigureStyle &style, qreal width) const;
    QStringList subtitleLines(const FigureStyle &style, const QRectF &bounds) const;
    qreal headerHeight(const FigureStyle &style, const QRectF &bounds) const;
    QRectF graphArea(const QRectF &bounds) const;
    Placement placementFor(const QRectF &bounds) const;
    void paintHeader(QPainter &painter, const QRectF &bounds, const FigureStyle &style) const;
    void paintLegend(QPainter &painter, const QRectF &bounds, const FigureStyle &style) const;
    void paintArrow(QPainter &painter, const Arrow &arrow, const FigureStyle &style) const;
    void paintBox(QPainter &painter, const Box &box, const FigureStyle &style) const;

    std::shared_ptr<const Program> m_program;
    Cascade m_cascade;
    QString m_title;
    QString m_subtitle;
    Options m_options;
    std::set<std::size_t> m_unfolded;
    std::vector<Box> m_boxes;
    std::vector<Arrow> m_arrows;
    QRectF m_layoutBounds;
    QString m_layoutError;
};

} // namespace rematlens
