#include "views/cascade/cascade_diagram.h"

#include "views/common/byte_units.h"
#include "views/common/text_wrap.h"
#include "views/common/trace_name.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace rematlens {

namespace {

constexpr qreal kPadding = 4; // inside a box, points
constexpr qreal kMargin = 6;  // around the figure

QString shortBytes(Bytes bytes)
{
    return ByteUnits::format(static_cast<double>(bytes));
}

QString exactBytes(Bytes bytes)
{
    return ByteUnits::exact(static_cast<std::int64_t>(bytes));
}

QColor fillFor(const std::optional<CascadeNode::Kind> &kind, const FigureStyle &style)
{
    if (!kind)
        return style.grid();
    switch (*kind) {
    case CascadeNode::Kind::Failure: {
        QColor c = style.failure();
        c.setAlpha(70);
        return c;
    }
    case CascadeNode::Kind::Remat:
        return style.rematShade();
    case CascadeNode::Kind::Evict: {
        QColor c = style.eviction();
        c.setAlpha(60);
        return c;
    }
    case CascadeNode::Kind::Release:
        return style.grid();
    case CascadeNode::Kind::Compute:
        return QColor(Qt::white);
    }
    return QColor(Qt::white);
}

QColor arrowColour(CascadeEdge::Kind kind, const FigureStyle &style)
{
    switch (kind) {
    case CascadeEdge::Kind::MadeRoomFor:
        return style.eviction();
    case CascadeEdge::Kind::RematerializedAs:
        return style.budgetLine();
    case CascadeEdge::Kind::NeededBy:
        return style.ink();
    }
    return style.ink();
}

Qt::PenStyle arrowPenStyle(CascadeEdge::Kind kind)
{
    return kind == CascadeEdge::Kind::MadeRoomFor ? Qt::DashLine : Qt::SolidLine;
}

// The title's font: a little larger than the text, bold.
QFont titleFont(const FigureStyle &style)
{
    QFont bold = style.font(1.15);
    bold.setBold(true);
    return bold;
}

} // namespace

CascadeDiagram::CascadeDiagram(std::shared_ptr<const Program> program, Cascade cascade, QString title, QString subtitle,
                               Options options)
    : m_program(std::move(program)), m_cascade(std::move(cascade)), m_title(std::move(title)),
      m_subtitle(std::move(subtitle)), m_options(options)
{
    rebuild();
}

CascadeDiagram CascadeDiagram::forRun(std::shared_ptr<const Program> program, const RunRequest &request,
                                      const RunResult &result, const RunRecording &recording,
                                      const CascadeOptions &options, Options look)
{
    Cascade cascade = buildCascade(*program, recording, result, options);
    const QString title =
        QStringLiteral("Cascade: %1, %2, %3 runtime, ratio %4 (%5)")
            .arg(shortTraceName(QString::fromStdString(request.trace)),
                 QString::fromStdString(request.config.policy.name),
                 QString::fromUtf8(runtimeName(request.config.runtime).data(),
                                   static_cast<qsizetype>(runtimeName(request.config.runtime).size())))
            .arg(request.ratio)
            .arg(QString::fromUtf8(outcomeName(result.outcome).data(),
                                   static_cast<qsizetype>(outcomeName(result.outcome).size())));
    QString subtitle;
    if (result.failure) {
        const Failure &f = *result.failure;
        subtitle = QStringLiteral("%1 (%2) needed %3 with %4 in use: %5 short. ")
                       .arg(QString::fromStdString(f.tensor), QString::fromStdString(f.operatorName),
                            shortBytes(f.bytesNeeded), shortBytes(f.memoryInUse), exactBytes(f.bytesShort));
    }
    const bool aroundEvent = cascade.focus && cascade.nodes[*cascade.focus].kind != CascadeNode::Kind::Failure;
    if (aroundEvent) {
        const CascadeNode &focus = cascade.nodes[*cascade.focus];
        subtitle += QStringLiteral("What led to %1 %2 at step %3: ")
                        .arg(QString::fromStdString(cascadeNodeKindName(focus.kind)),
                             QString::fromStdString(program->tensors[focus.tensor].name))
                        .arg(focus.step);
    }
    subtitle += QStringLiteral("%1 to %2 materializations before it, with the evictions that made room for them")
                    .arg(aroundEvent ? QStringLiteral("up") : QStringLiteral("Up"))
                    .arg(options.materializations);
    if (cascade.materializationsLeftOut > 0)
        subtitle += QStringLiteral(" (%1 earlier causes left out)").arg(cascade.materializationsLeftOut);
    if (!request.keep.empty()) {
        QStringList kept;
        for (const std::string &name : request.keep)
            kept << QString::fromStdString(name);
        subtitle += QStringLiteral("; kept resident: ") + kept.join(QStringLiteral(", "));
    }
    return CascadeDiagram(std::move(program), std::move(cascade), title, subtitle, look);
}

FigureStyle CascadeDiagram::measuringStyle() const
{
    FigureStyle style;
    style.fontSize = m_options.fontSize;
    return style;
}

void CascadeDiagram::unfold(std::size_t node)
{
    if (m_unfolded.insert(node).second)
        rebuild();
}

CascadeDiagram CascadeDiagram::atFontSize(qreal fontSize) const
{
    CascadeDiagram copy = *this;
    copy.m_options.fontSize = fontSize;
    copy.rebuild();
    return copy;
}

void CascadeDiagram::rebuild()
{
    m_boxes.clear();
    m_arrows.clear();
    if (!m_program || m_cascade.nodes.empty())
        return;
    std::vector<int> boxOfNode(m_cascade.nodes.size(), -1);
    addBoxes(boxOfNode);
    addArrows(boxOfNode);
    runLayout();
}

// Every node gets a box, except evictions in a crowd of more than foldAbove that made room
// for one materialization and did nothing else shown: those fold into one box.
void CascadeDiagram::addBoxes(std::vector<int> &boxOfNode)
{
    const auto &nodes = m_cascade.nodes;
    std::vector<int> edgesOf(nodes.size(), 0);
    for (const CascadeEdge &e : m_cascade.edges) {
        ++edgesOf[e.from];
        ++edgesOf[e.to];
    }
    std::vector<std::vector<std::size_t>> crowdOf(nodes.size());
    for (const CascadeEdge &e : m_cascade.edges)
        if (e.kind == CascadeEdge::Kind::MadeRoomFor && edgesOf[e.from] == 1)
            crowdOf[e.to].push_back(e.from);
    std::vector<std::uint8_t> hidden(nodes.size(), 0);
    std::vector<Box> crowds;
    for (std::size_t n = 0; n < nodes.size(); ++n) {
        std::vector<std::size_t> &crowd = crowdOf[n];
        if (crowd.size() <= m_options.foldAbove || m_unfolded.count(n))
            continue;
        std::stable_sort(crowd.begin(), crowd.end(),
                         [&](std::size_t a, std::size_t b) { return nodes[a].bytes > nodes[b].bytes; });
        Box box;
        box.foldedInto = n;
        for (std::size_t i = m_options.shownWhenFolded; i < crowd.size(); ++i) {
            hidden[crowd[i]] = 1;
            ++box.foldedCount;
            box.foldedBytes += nodes[crowd[i]].bytes;
        }
        box.lines = {QStringLiteral("+%1 smaller evictions").arg(box.foldedCount),
                     shortBytes(box.foldedBytes) + QStringLiteral(" in all")};
        crowds.push_back(box);
    }
    for (std::size_t n = 0; n < nodes.size(); ++n)
        if (!hidden[n]) {
            boxOfNode[n] = static_cast<int>(m_boxes.size());
            Box box;
            box.node = n;
            box.lines = linesFor(nodes[n]);
            m_boxes.push_back(box);
        }
    m_boxes.insert(m_boxes.end(), crowds.begin(), crowds.end());
    QFont headingFont = measuringStyle().font(1.0);
    headingFont.setBold(true);
    const QFontMetricsF heading(headingFont);
    const QFontMetricsF body(measuringStyle().font(0.9));
    for (Box &box : m_boxes) {
        qreal width = 0;
        qreal height = 2 * kPadding;
        for (int i = 0; i < box.lines.size(); ++i) {
            const QFontMetricsF &metrics = i == 0 ? heading : body;
            width = std::max(width, metrics.horizontalAdvance(box.lines[i]));
            height += metrics.height();
        }
        box.size = QSizeF(std::ceil(width + 2 * kPadding + 2), std::ceil(height));
    }
}

void CascadeDiagram::addArrows(const std::vector<int> &boxOfNode)
{
    for (const CascadeEdge &e : m_cascade.edges)
        if (boxOfNode[e.from] >= 0 && boxOfNode[e.to] >= 0)
            m_arrows.push_back(Arrow{static_cast<std::size_t>(boxOfNode[e.from]),
                                     static_cast<std::size_t>(boxOfNode[e.to]),
                                     e.kind,
                                     {},
                                     {}});
    for (std::size_t b = 0; b < m_boxes.size(); ++b)
        if (!m_boxes[b].node)
            m_arrows.push_back(Arrow{
                b, static_cast<std::size_t>(boxOfNode[m_boxes[b].foldedInto]), CascadeEdge::Kind::MadeRoomFor, {}, {}});
}

void CascadeDiagram::runLayout()
{
    std::vector<QSizeF> sizes;
    for (const Box &box : m_boxes)
        sizes.push_back(box.size);
    std::vector<GraphLayout::Edge> edges;
    for (const Arrow &arrow : m_arrows)
        edges.push_back({static_cast<int>(arrow.from), static_cast<int>(arrow.to)});
    GraphLayout::Options layoutOptions;
    layoutOptions.leftToRight = m_options.leftToRight;
    const GraphLayout::Result laid = GraphLayout::layout(sizes, edges, layoutOptions);
    m_layoutError = laid.error;
    if (!laid.ok) {
        m_boxes.clear();
        m_arrows.clear();
        return;
    }
    m_layoutBounds = laid.bounds;
    for (std::size_t i = 0; i < m_boxes.size(); ++i)
        m_boxes[i].centre = laid.centres[i];
    for (std::size_t i = 0; i < m_arrows.size(); ++i) {
        m_arrows[i].path = laid.paths[i];
        m_arrows[i].head = laid.arrowheads[i];
    }
}

QStringList CascadeDiagram::linesFor(const CascadeNode &node) const
{
    const TensorInfo &tensor = m_program->tensors[node.tensor];
    const QString name = QString::fromStdString(tensor.name);
    const QString op = QString::fromStdString(m_program->ops[tensor.op].name);
    const QString where = QStringLiteral("step %1 · depth %2").arg(node.step).arg(node.depth);
    switch (node.kind) {
    case CascadeNode::Kind::Failure:
        return {QStringLiteral("OUT OF MEMORY allocating ") + name, op,
                QStringLiteral("needs ") + shortBytes(node.bytes) + QStringLiteral(": ") + exactBytes(node.bytesShort) +
                    QStringLiteral(" short"),
                where};
    case CascadeNode::Kind::Remat:
        return {QStringLiteral("remat ") + name, op, shortBytes(node.bytes) + QStringLiteral(" · ") + where};
    case CascadeNode::Kind::Compute:
        return {QStringLiteral("compute ") + name, op, shortBytes(node.bytes) + QStringLiteral(" · ") + where};
    case CascadeNode::Kind::Evict:
        return {QStringLiteral("evict ") + name, op,
                shortBytes(node.bytes) + QStringLiteral(" · step %1").arg(node.step)};
    case CascadeNode::Kind::Release:
        return {QStringLiteral("freed on release ") + name, op,
                shortBytes(node.bytes) + QStringLiteral(" · step %1").arg(node.step)};
    }
    return {name};
}

// The legend's entries in order: three kinds of arrow, then which way time runs.
static QStringList legendLabels(bool leftToRight)
{
    QStringList labels;
    for (CascadeEdge::Kind kind :
         {CascadeEdge::Kind::MadeRoomFor, CascadeEdge::Kind::RematerializedAs, CascadeEdge::Kind::NeededBy})
        labels << QString::fromStdString(cascadeEdgeKindName(kind));
    labels << (leftToRight ? QStringLiteral("time runs to the right") : QStringLiteral("time runs downwards"));
    return labels;
}

constexpr qreal kLegendSwatch = 26; // the arrow drawn before an arrow's label
constexpr qreal kLegendGap = 14;

// Where each legend entry starts (x from the left margin, and its row): entries wrap onto a
// new row rather than run out of a narrow window.
static std::vector<QPointF> legendPlaces(const FigureStyle &style, bool leftToRight, qreal width)
{
    const QFontMetricsF metrics(style.font(0.9));
    const QStringList labels = legendLabels(leftToRight);
    std::vector<QPointF> places;
    qreal x = 0;
    int row = 0;
    for (int i = 0; i < labels.size(); ++i) {
        const qreal entry = (i < 3 ? kLegendSwatch : 0) + metrics.horizontalAdvance(labels[i]);
        if (x > 0 && x + entry > width) {
            x = 0;
            ++row;
        }
        places.emplace_back(x, row);
        x += entry + kLegendGap;
    }
    return places;
}

static qreal legendHeight(const FigureStyle &style, bool leftToRight, qreal width)
{
    const int rows = int(legendPlaces(style, leftToRight, width - 2 * kMargin).back().y()) + 1;
    return rows * QFontMetricsF(style.font(0.9)).height() + 6;
}

// The title and the subtitle whole, on as many lines as the width needs.
QStringList CascadeDiagram::titleLines(const FigureStyle &style, qreal width) const
{
    return TextWrap::clauses(m_title.split(QStringLiteral(", ")), QStringLiteral(", "), QFontMetricsF(titleFont(style)),
                             width - 2 * kMargin);
}

// In a figure too short for the subtitle and two lines of graph besides, the title and the
// legend say enough: the subtitle is left out rather than drawn over the legend.
QStringList CascadeDiagram::subtitleLines(const FigureStyle &style, const QRectF &bounds) const
{
    if (m_subtitle.isEmpty())
        return {};
    const QFontMetricsF metrics(style.font(0.9));
    const QStringList lines = TextWrap::lines(m_subtitle, metrics, bounds.width() - 2 * kMargin);
    const qreal graph = bounds.height() - 2 * kMargin - 4 -
                        titleLines(style, bounds.width()).size() * QFontMetricsF(titleFont(style)).height() -
                        lines.size() * metrics.height() - legendHeight(style, m_options.leftToRight, bounds.width());
    return graph >= 2 * metrics.height() ? lines : QStringList();
}

qreal CascadeDiagram::headerHeight(const FigureStyle &style, const QRectF &bounds) const
{
    return titleLines(style, bounds.width()).size() * QFontMetricsF(titleFont(style)).height() +
           subtitleLines(style, bounds).size() * QFontMetricsF(style.font(0.9)).height() + 4;
}

QRectF CascadeDiagram::graphArea(const QRectF &bounds) const
{
    const FigureStyle style = measuringStyle();
    return bounds.adjusted(kMargin, kMargin + headerHeight(style, bounds), -kMargin,
                           -kMargin - legendHeight(style, m_options.leftToRight, bounds.width()));
}

CascadeDiagram::Placement CascadeDiagram::placementFor(const QRectF &bounds) const
{
    const QRectF area = graphArea(bounds);
    Placement p;
    if (m_layoutBounds.width() <= 0 || m_layoutBounds.height() <= 0)
        return p;
    p.scale = std::min({1.0, area.width() / m_layoutBounds.width(), area.height() / m_layoutBounds.height()});
    const qreal left = area.left() + (area.width() - m_layoutBounds.width() * p.scale) / 2;
    p.origin = QPointF(left, area.top());
    return p;
}

QSizeF CascadeDiagram::preferredSize(qreal width) const
{
    const qreal graphWidth = width - 2 * kMargin;
    const qreal scale = m_layoutBounds.width() > 0 ? std::min(1.0, graphWidth / m_layoutBounds.width()) : 1.0;
    const QRectF unbounded(0, 0, width, 1e9);
    const qreal chrome = 2 * kMargin + headerHeight(measuringStyle(), unbounded) +
                         legendHeight(measuringStyle(), m_options.leftToRight, width);
    return QSizeF(width, std::ceil(chrome + m_layoutBounds.height() * scale + 1));
}

std::optional<std::size_t> CascadeDiagram::boxAt(const QRectF &bounds, const QPointF &point) const
{
    const Placement p = placementFor(bounds);
    const QPointF inLayout = (point - p.origin) / p.scale;
    for (std::size_t i = 0; i < m_boxes.size(); ++i) {
        const QRectF r(m_boxes[i].centre - QPointF(m_boxes[i].size.width(), m_boxes[i].size.height()) / 2,
                       m_boxes[i].size);
        if (r.contains(inLayout))
            return i;
    }
    return std::nullopt;
}

void CascadeDiagram::paint(QPainter &painter, const QRectF &bounds, const FigureStyle &given) const
{
    FigureStyle style = given;
    style.fontSize = m_options.fontSize; // what the boxes were measured with
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.fillRect(bounds, Qt::white);
    paintHeader(painter, bounds, style);
    if (m_boxes.empty()) {
        painter.setFont(style.font());
        painter.setPen(style.ink());
        painter.drawText(graphArea(bounds), Qt::AlignCenter,
                         m_layoutError.isEmpty() ? QStringLiteral("No rematerializations to show")
                                                 : QStringLiteral("Layout failed: ") + m_layoutError);
        painter.restore();
        return;
    }
    paintLegend(painter, bounds, style);
    const Placement p = placementFor(bounds);
    painter.translate(p.origin);
    painter.scale(p.scale, p.scale);
    for (const Arrow &arrow : m_arrows)
        paintArrow(painter, arrow, style);
    for (const Box &box : m_boxes)
        paintBox(painter, box, style);
    painter.restore();
}

void CascadeDiagram::paintHeader(QPainter &painter, const QRectF &bounds, const FigureStyle &style) const
{
    painter.setPen(style.ink());
    qreal top = bounds.top() + kMargin;
    const auto lines = [&](const QStringList &texts, const QFont &font) {
        painter.setFont(font);
        const qreal height = QFontMetricsF(font).height();
        for (const QString &text : texts) {
            painter.drawText(QRectF(bounds.left() + kMargin, top, bounds.width() - 2 * kMargin, height),
                             Qt::AlignLeft | Qt::AlignVCenter, text);
            top += height;
        }
    };
    lines(titleLines(style, bounds.width()), titleFont(style));
    lines(subtitleLines(style, bounds), style.font(0.9));
}

void CascadeDiagram::paintLegend(QPainter &painter, const QRectF &bounds, const FigureStyle &style) const
{
    const QFontMetricsF metrics(style.font(0.9));
    const QStringList labels = legendLabels(m_options.leftToRight);
    const std::vector<QPointF> places = legendPlaces(style, m_options.leftToRight, bounds.width() - 2 * kMargin);
    const qreal top = bounds.bottom() - kMargin - legendHeight(style, m_options.leftToRight, bounds.width()) + 3;
    painter.setFont(style.font(0.9));
    const CascadeEdge::Kind kinds[] = {CascadeEdge::Kind::MadeRoomFor, CascadeEdge::Kind::RematerializedAs,
                                       CascadeEdge::Kind::NeededBy};
    for (int i = 0; i < labels.size(); ++i) {
        qreal x = bounds.left() + kMargin + places[std::size_t(i)].x();
        const qreal y = top + (places[std::size_t(i)].y() + 0.5) * metrics.height();
        if (i < 3) {
            const CascadeEdge::Kind kind = kinds[i];
            painter.setPen(QPen(arrowColour(kind, style), style.lineWidth * 1.2, arrowPenStyle(kind)));
            painter.drawLine(QPointF(x, y), QPointF(x + 18, y));
            painter.setBrush(arrowColour(kind, style));
            painter.setPen(Qt::NoPen);
            painter.drawPolygon(QPolygonF({QPointF(x + 22, y), QPointF(x + 16, y - 2.5), QPointF(x + 16, y + 2.5)}));
            x += kLegendSwatch;
        }
        painter.setPen(style.ink());
        painter.drawText(QPointF(x, y + metrics.ascent() / 2 - 1), labels[i]);
    }
}

void CascadeDiagram::paintArrow(QPainter &painter, const Arrow &arrow, const FigureStyle &style) const
{
    const QColor colour = arrowColour(arrow.kind, style);
    const qreal width = arrow.kind == CascadeEdge::Kind::RematerializedAs ? style.lineWidth * 1.6 : style.lineWidth;
    painter.setPen(QPen(colour, width, arrowPenStyle(arrow.kind)));
    painter.setBrush(Qt::NoBrush);
    painter.drawPath(arrow.path);
    const auto &[base, tip] = arrow.head;
    const QPointF along = tip - base;
    const qreal length = std::hypot(along.x(), along.y());
    if (length <= 0)
        return;
    const QPointF across = QPointF(-along.y(), along.x()) / length * 3.0;
    painter.setPen(Qt::NoPen);
    painter.setBrush(colour);
    painter.drawPolygon(QPolygonF({tip, base + across, base - across}));
}

void CascadeDiagram::paintBox(QPainter &painter, const Box &box, const FigureStyle &style) const
{
    const QRectF r(box.centre - QPointF(box.size.width(), box.size.height()) / 2, box.size);
    const std::optional<CascadeNode::Kind> kind =
        box.node ? std::optional<CascadeNode::Kind>(m_cascade.nodes[*box.node].kind) : std::nullopt;
    const bool failure = kind == CascadeNode::Kind::Failure;
    painter.setBrush(fillFor(kind, style));
    QPen border(failure ? style.failure() : style.ink(), failure ? style.lineWidth * 2 : style.axisWidth,
                box.node ? Qt::SolidLine : Qt::DotLine);
    painter.setPen(border);
    painter.drawRoundedRect(r, 2.5, 2.5);
    painter.setPen(style.ink());
    qreal y = r.top() + kPadding;
    for (int i = 0; i < box.lines.size(); ++i) {
        QFont font = style.font(i == 0 ? 1.0 : 0.9);
        font.setBold(i == 0);
        painter.setFont(font);
        const qreal h = QFontMetricsF(style.font(i == 0 ? 1.0 : 0.9)).height();
        painter.drawText(QRectF(r.left() + kPadding, y, r.width() - 2 * kPadding + 2, h),
                         Qt::AlignLeft | Qt::AlignVCenter, box.lines[i]);
        y += h;
    }
}

QString CascadeDiagram::csv() const
{
    QString out = QStringLiteral("node,kind,tensor,operator,bytes,bytes_short,depth,step,clock,leads_to\n");
    for (std::size_t i = 0; i < m_cascade.nodes.size(); ++i) {
        const CascadeNode &n = m_cascade.nodes[i];
        const TensorInfo &t = m_program->tensors[n.tensor];
        QStringList leadsTo;
        for (const CascadeEdge &e : m_cascade.edges)
            if (e.from == i)
                leadsTo << QString::fromStdString(cascadeEdgeKindName(e.kind)) + QStringLiteral(" ") +
                               QString::number(e.to);
        out += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9,%10\n")
                   .arg(i)
                   .arg(QString::fromStdString(cascadeNodeKindName(n.kind)), QString::fromStdString(t.name),
                        QString::fromStdString(m_program->ops[t.op].name))
                   .arg(n.bytes)
                   .arg(n.bytesShort)
                   .arg(n.depth)
                   .arg(n.step)
                   .arg(n.clock)
                   .arg(leadsTo.join(QStringLiteral(";")));
    }
    return out;
}

} // namespace rematlens
