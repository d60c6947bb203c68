#include "views/memory/memory_map_figure.h"

#include "views/common/text_wrap.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>
#include <QTextStream>

#include <algorithm>
#include <array>

namespace rematlens {

namespace {

// Rows are this many text lines high, with this much space between them.
constexpr qreal kRowLines = 1.5;
constexpr qreal kGapLines = 0.45;

const char *stateName(BlockView::State state)
{
    switch (state) {
    case BlockView::State::Allocated: return "allocated";
    case BlockView::State::Free: return "free";
    case BlockView::State::Unmapped: return "unmapped";
    }
    return "";
}

} // namespace

MemoryMapFigure::MemoryMapFigure(std::shared_ptr<const MemoryMapPlot> plot)
    : m_plot(plot ? std::move(plot) : std::make_shared<const MemoryMapPlot>())
{
}

QColor MemoryMapFigure::tensorColour(TensorId tensor, const FigureStyle &style)
{
    // Neighbouring blocks usually hold tensors made one after another: consecutive ids get
    // colours far apart.
    static const std::array<QColor, 10> colours{
        QColor(0x4E, 0x79, 0xA7), QColor(0xF2, 0x8E, 0x2B), QColor(0x59, 0xA1, 0x4F), QColor(0xB0, 0x7A, 0xA1),
        QColor(0x76, 0xB7, 0xB2), QColor(0xED, 0xC9, 0x48), QColor(0x9C, 0x75, 0x5F), QColor(0xE1, 0x57, 0x59),
        QColor(0x6A, 0x8F, 0x3C), QColor(0x86, 0xBC, 0xE6)};
    static const std::array<QColor, 3> greys{QColor(0x55, 0x55, 0x55), QColor(0x88, 0x88, 0x88),
                                             QColor(0xB0, 0xB0, 0xB0)};
    if (tensor == kNone)
        return style.ink();
    if (style.palette == FigureStyle::Palette::GreyscaleSafe)
        return greys[tensor % greys.size()];
    return colours[(tensor * 3) % colours.size()];
}

QColor MemoryMapFigure::freeColour()
{
    return QColor(0xF7, 0xF7, 0xF7);
}

// Capacity no segment holds yet: where new segments would go (none in the arena, none under an
// unlimited device).
Bytes MemoryMapFigure::unreserved() const
{
    const MemorySnapshot &s = *m_plot->snapshot;
    return s.capacity < kUnlimitedCapacity && s.capacity > s.reserved ? s.capacity - s.reserved : 0;
}

// Nothing is elided: a heading, totals or failure wider than the figure wraps, the heading and
// the totals between their clauses.
MemoryMapFigure::Header MemoryMapFigure::header(const FigureStyle &style, qreal width) const
{
    const QFontMetricsF metrics(style.font());
    Header h;
    h.heading = TextWrap::clauses(m_plot->heading().split(QStringLiteral(", ")), QStringLiteral(", "),
                                  QFontMetricsF(style.boldFont()), width);
    h.totals = TextWrap::clauses(m_plot->totals().split(QStringLiteral("; ")), QStringLiteral("; "), metrics, width);
    if (const QString failure = m_plot->failureText(); !failure.isEmpty())
        h.failure = TextWrap::lines(failure, metrics, width);
    return h;
}

qreal MemoryMapFigure::headerHeight(const FigureStyle &style, qreal width) const
{
    const qreal line = QFontMetricsF(style.font()).height();
    const Header h = header(style, width);
    const qreal rows = legendPlaces(style, width).back().y() + 1;
    return line * (h.heading.size() + h.totals.size() + h.failure.size() + rows) + line * 0.4;
}

std::optional<MemoryMapLayout> MemoryMapFigure::layoutFor(const QRectF &bounds, const FigureStyle &style) const
{
    if (m_plot->empty())
        return std::nullopt;
    const qreal line = QFontMetricsF(style.font()).height();
    const qreal margin = line * 0.3;
    const QRectF area = bounds.adjusted(margin, headerHeight(style, bounds.width() - 2 * margin), -margin, -margin);
    return MemoryMapLayout(*m_plot->snapshot, area, line * kRowLines, line * kGapLines, unreserved());
}

void MemoryMapFigure::paintFigure(QPainter &painter, const QRectF &bounds, const FigureStyle &style) const
{
    painter.save();
    painter.setFont(style.font());
    painter.fillRect(bounds, Qt::white);
    if (m_plot->empty()) {
        painter.setPen(style.ink());
        const QRectF box = bounds.adjusted(8, 8, -8, -8);
        painter.drawText(box, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, messageFor(box, style));
        painter.restore();
        return;
    }
    paintHeader(painter, bounds, style);
    const std::optional<MemoryMapLayout> layout = layoutFor(bounds, style);
    paintBlocks(painter, *layout, style);
    paintRequest(painter, *layout, style);
    painter.restore();
}

// Under the byte sum, why there is no map: whole where it fits in `box`, else its gist.
QString MemoryMapFigure::messageFor(const QRectF &box, const FigureStyle &style) const
{
    if (!m_plot->byteSum() || !m_plot->program)
        return QStringLiteral("No memory map to show");
    const QString whole = MemoryMapPlot::byteSumExplanation();
    const QRectF needed = QFontMetricsF(style.font())
                              .boundingRect(QRectF(box.topLeft(), QSizeF(box.width(), 1e6)),
                                            Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, whole);
    return needed.height() <= box.height() ? whole : MemoryMapPlot::byteSumSummary();
}

void MemoryMapFigure::paintHeader(QPainter &painter, const QRectF &bounds, const FigureStyle &style) const
{
    const QFontMetricsF metrics(style.font());
    const qreal line = metrics.height();
    const qreal left = bounds.left() + line * 0.3;
    const qreal width = bounds.width() - line * 0.6;
    const Header h = header(style, width);
    qreal y = bounds.top() + metrics.ascent() + line * 0.15;
    const auto lines = [&](const QStringList &texts) {
        for (const QString &text : texts) {
            painter.drawText(QPointF(left, y), text);
            y += line;
        }
    };
    painter.setFont(style.boldFont());
    painter.setPen(style.ink());
    lines(h.heading);
    painter.setFont(style.font());
    lines(h.totals);
    painter.setPen(style.failure());
    lines(h.failure);
    painter.setPen(style.ink());
    paintLegend(painter, QPointF(left, y - line * 0.65), width, style); // under the last line
}

std::vector<MemoryMapFigure::Swatch> MemoryMapFigure::swatches() const
{
    std::vector<Swatch> shown{Swatch::Tensors, Swatch::Free};
    if (unreserved() > 0)
        shown.push_back(Swatch::Unreserved);
    if (m_plot->snapshot->failure)
        shown.push_back(Swatch::Failing);
    return shown;
}

QString MemoryMapFigure::swatchLabel(Swatch swatch)
{
    switch (swatch) {
    case Swatch::Tensors: return QStringLiteral("tensors");
    case Swatch::Free: return QStringLiteral("free");
    case Swatch::Unreserved: return QStringLiteral("unreserved capacity");
    case Swatch::Failing: return QStringLiteral("failing request");
    }
    return {};
}

// Swatches left to right, onto a new row where the figure is too narrow for the next one.
std::vector<QPointF> MemoryMapFigure::legendPlaces(const FigureStyle &style, qreal width) const
{
    const QFontMetricsF metrics(style.font());
    const qreal line = metrics.height();
    const qreal box = line * 0.75 * 1.6 + line * 0.3; // the swatch and the gap to its label
    std::vector<QPointF> places;
    qreal x = 0;
    int row = 0;
    for (const Swatch swatch : swatches()) {
        const qreal entry = box + metrics.horizontalAdvance(swatchLabel(swatch));
        if (x > 0 && x + entry > width) {
            x = 0;
            ++row;
        }
        places.emplace_back(x, row);
        x += entry + line;
    }
    return places;
}

// Swatches are rounded so that only blocks are plain rectangles in a vector figure.
void MemoryMapFigure::paintLegend(QPainter &painter, QPointF at, qreal width, const FigureStyle &style) const
{
    const QFontMetricsF metrics(style.font());
    const qreal line = metrics.height();
    const qreal box = line * 0.75;
    const std::vector<Swatch> shown = swatches();
    const std::vector<QPointF> places = legendPlaces(style, width);
    for (std::size_t i = 0; i < shown.size(); ++i) {
        const qreal top = at.y() + places[i].y() * line;
        const QRectF r(at.x() + places[i].x(), top + (line - box) / 2, box * 1.6, box);
        paintSwatch(painter, shown[i], r, style);
        painter.setPen(style.ink());
        painter.drawText(QPointF(r.right() + line * 0.3, top + metrics.ascent()), swatchLabel(shown[i]));
    }
}

void MemoryMapFigure::paintSwatch(QPainter &painter, Swatch swatch, const QRectF &r, const FigureStyle &style) const
{
    switch (swatch) {
    case Swatch::Tensors:
        painter.setPen(Qt::NoPen);
        painter.setBrush(tensorColour(0, style));
        painter.drawRoundedRect(QRectF(r.left(), r.top(), r.width() / 2, r.height()), 1, 1);
        painter.setBrush(tensorColour(1, style));
        painter.drawRoundedRect(QRectF(r.center().x(), r.top(), r.width() / 2, r.height()), 1, 1);
        return;
    case Swatch::Free:
        painter.setPen(QPen(style.ink(), style.axisWidth));
        painter.setBrush(freeColour());
        painter.drawRoundedRect(r, 1, 1);
        hatch(painter, r, style.reserved(), r.height() / 0.75 * 0.3);
        return;
    case Swatch::Unreserved:
        painter.setPen(QPen(style.reserved(), style.axisWidth, Qt::DashLine));
        painter.setBrush(Qt::NoBrush);
        painter.drawRoundedRect(r, 1, 1);
        return;
    case Swatch::Failing:
        painter.setPen(QPen(style.failure(), style.lineWidth * 1.5));
        painter.setBrush(Qt::NoBrush);
        painter.drawRoundedRect(r, 1, 1);
        return;
    }
}

void MemoryMapFigure::hatch(QPainter &painter, const QRectF &rect, const QColor &colour, qreal spacing)
{
    if (rect.width() < 1.5)
        return;
    painter.save();
    painter.setClipRect(rect, Qt::IntersectClip);
    painter.setPen(QPen(colour, std::max<qreal>(0.5, spacing * 0.18)));
    QPainterPath lines;
    for (qreal x = rect.left() - rect.height(); x < rect.right(); x += spacing) {
        lines.moveTo(x, rect.bottom());
        lines.lineTo(x + rect.height(), rect.top());
    }
    painter.setBrush(Qt::NoBrush);
    painter.drawPath(lines);
    painter.restore();
}

// One plain rectangle per piece of a block; segment outlines as paths around their rows.
void MemoryMapFigure::paintBlocks(QPainter &painter, const MemoryMapLayout &layout, const FigureStyle &style) const
{
    const MemorySnapshot &snapshot = *m_plot->snapshot;
    const qreal line = QFontMetricsF(style.font()).height();
    const QPen separator(Qt::white, std::max<qreal>(0.3, style.axisWidth * 0.6));
    for (const MemoryMapLayout::Piece &piece : layout.pieces()) {
        const SnapshotBlock &block = snapshot.segments[piece.segment].blocks[piece.block];
        switch (block.state) {
        case BlockView::State::Allocated:
            painter.setBrush(tensorColour(block.tensor, style));
            painter.setPen(piece.rect.width() > 3 ? separator : QPen(Qt::NoPen));
            painter.drawRect(piece.rect);
            break;
        case BlockView::State::Free:
            painter.setBrush(freeColour());
            painter.setPen(Qt::NoPen);
            painter.drawRect(piece.rect);
            hatch(painter, piece.rect, style.reserved(), line * 0.3);
            break;
        case BlockView::State::Unmapped:
            painter.setBrush(QColor(0xE0, 0xE0, 0xE0));
            painter.setPen(Qt::NoPen);
            painter.drawRect(piece.rect);
            break;
        }
    }
    QPainterPath outlines;
    for (const auto &rects : layout.segmentRects())
        for (const QRectF &r : rects)
            outlines.addRoundedRect(r, 0.5, 0.5);
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(style.ink(), style.axisWidth));
    painter.drawPath(outlines);
    QPainterPath unreserved;
    for (const QRectF &r : layout.unreservedRects())
        unreserved.addRoundedRect(r, 0.5, 0.5);
    painter.setPen(QPen(style.reserved(), style.axisWidth, Qt::DashLine));
    painter.drawPath(unreserved);
    if (layout.hiddenSegments() > 0) {
        painter.setPen(style.ink());
        painter.drawText(layout.end() + QPointF(line * 0.5, line),
                         QStringLiteral("%1 more segments not shown").arg(layout.hiddenSegments()));
    }
}

std::optional<QRectF> MemoryMapFigure::requestRect(const MemoryMapLayout &layout) const
{
    const MemorySnapshot &snapshot = *m_plot->snapshot;
    if (!snapshot.failure)
        return std::nullopt;
    const Bytes request = std::max(snapshot.failure->request, Bytes(1));
    const qreal width = std::max<qreal>(4, qreal(double(request) / layout.bytesPerPixel()));
    QPointF at = layout.end();
    qreal height = 0;
    const auto largest = m_plot->largestFreeBlock();
    const Bytes largestInSegments =
        largest ? snapshot.segments[largest->first].blocks[largest->second].size : Bytes(0);
    // Where the allocator's largest free space is: a free block, or capacity for a new segment.
    if (!layout.unreservedRects().empty() && unreserved() >= largestInSegments) {
        at = layout.unreservedRects().front().topLeft();
        height = layout.unreservedRects().front().height();
    } else if (largest) {
        for (const MemoryMapLayout::Piece &piece : layout.pieces())
            if (piece.segment == largest->first && piece.block == largest->second) {
                at = piece.rect.topLeft();
                height = piece.rect.height();
                break;
            }
    }
    if (height == 0)
        height = layout.pieces().empty() ? 12 : layout.pieces().front().rect.height();
    // From the largest free space on (it overshoots it: that is why it failed), within the row.
    const qreal right = std::min(at.x() + width, layout.area().right());
    return QRectF(at.x(), at.y() + height * 0.2, std::max<qreal>(4, right - at.x()), height * 0.6);
}

void MemoryMapFigure::paintRequest(QPainter &painter, const MemoryMapLayout &layout, const FigureStyle &style) const
{
    const std::optional<QRectF> rect = requestRect(layout);
    if (!rect)
        return;
    QColor fill = style.failure();
    fill.setAlpha(70);
    QPainterPath marker;
    marker.addRoundedRect(*rect, 1, 1);
    painter.setPen(QPen(style.failure(), style.lineWidth * 1.8));
    painter.setBrush(fill);
    painter.drawPath(marker);
}

// One line per block, segments in address order.
QString MemoryMapFigure::figureCsv() const
{
    QString csv;
    QTextStream out(&csv);
    out << "segment_base,segment_size,address,size,state,tensor\n";
    if (m_plot->empty())
        return csv;
    for (const SnapshotSegment &segment : m_plot->snapshot->segments)
        for (const SnapshotBlock &block : segment.blocks)
            out << segment.base << ',' << segment.size << ',' << block.address << ',' << block.size << ','
                << stateName(block.state) << ','
                << (block.state == BlockView::State::Allocated ? m_plot->tensorName(block.tensor) : QString()) << '\n';
    return csv;
}

QString MemoryMapFigure::figureTitle() const
{
    if (m_plot->empty())
        return QStringLiteral("Memory map");
    return QStringLiteral("Memory map of %1 (%2), step %3")
        .arg(m_plot->runLabel(), m_plot->allocatorName())
        .arg(m_plot->snapshot->step);
}

} // namespace rematlens
