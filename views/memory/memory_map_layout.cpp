#include "views/memory/memory_map_layout.h"

#include <algorithm>
#include <cmath>

namespace rematlens {

namespace {
constexpr qreal kSegmentGap = 3;      // pixels between two segments
constexpr qreal kMinSegmentWidth = 3; // no segment thinner than this
} // namespace

MemoryMapLayout::MemoryMapLayout(const MemorySnapshot &snapshot, const QRectF &area, qreal rowHeight, qreal rowGap,
                                 Bytes unreserved)
    : m_area(area), m_rowHeight(rowHeight), m_rowGap(rowGap)
{
    for (const SnapshotSegment &segment : snapshot.segments)
        m_sizes.push_back(segment.size);
    m_segmentRects.resize(m_sizes.size());
    if (unreserved > 0)
        m_sizes.push_back(unreserved); // flows like one more segment
    if (m_sizes.empty() || area.width() < 8 || area.height() < rowHeight)
        return;
    const std::size_t available =
        std::max<std::size_t>(1, std::size_t((area.height() + rowGap) / (rowHeight + rowGap)));
    Bytes total = 0;
    for (Bytes size : m_sizes)
        total += size;
    // The finest scale that fits: between a perfect packing and one row per segment width.
    double fine = double(total) / (double(available) * area.width());
    double coarse = std::max(fine, double(total) / std::max(1.0, kMinSegmentWidth));
    if (rowsNeeded(coarse) > available) {
        m_bytesPerPixel = coarse;
    } else {
        for (int i = 0; i < 48 && coarse / fine > 1.0001; ++i) {
            const double middle = std::sqrt(fine * coarse);
            (rowsNeeded(middle) <= available ? coarse : fine) = middle;
        }
        m_bytesPerPixel = coarse;
    }
    // Whatever does not fit at the coarsest scale is left out (and said so).
    std::size_t shown = m_sizes.size();
    while (shown > 0 && flow(m_bytesPerPixel, shown, nullptr).empty())
        --shown;
    m_hidden = std::min(m_sizes.size() - shown, snapshot.segments.size() - std::min(shown, snapshot.segments.size()));
    const std::vector<Span> spans = flow(m_bytesPerPixel, shown, &m_end);
    std::size_t first = 0;
    for (std::size_t segment = 0; segment < shown; ++segment) {
        std::vector<Span> own;
        // The spans come in segment order; each segment's end is its size.
        while (first < spans.size()) {
            own.push_back(spans[first++]);
            if (own.back().to == m_sizes[segment])
                break;
        }
        if (segment < snapshot.segments.size()) {
            place(snapshot, own, segment);
            continue;
        }
        for (const Span &span : own)
            m_unreservedRects.push_back(QRectF(area.left() + span.x,
                                               area.top() + qreal(span.row) * (rowHeight + rowGap), span.width,
                                               rowHeight));
    }
    for (const auto &rects : m_segmentRects)
        for (const QRectF &r : rects)
            m_rows = std::max(m_rows, std::size_t((r.top() - area.top()) / (rowHeight + rowGap)) + 1);
}

qreal MemoryMapLayout::segmentWidth(Bytes size, double bytesPerPixel) const
{
    return std::max(kMinSegmentWidth, qreal(double(size) / bytesPerPixel));
}

std::size_t MemoryMapLayout::rowsNeeded(double bytesPerPixel) const
{
    const std::vector<Span> spans = flow(bytesPerPixel, m_sizes.size(), nullptr);
    return spans.empty() ? std::size_t(-1) : spans.back().row + 1;
}

// Segments along rows: a segment that does not fit the rest of a row starts the next one
// (unless it is longer than a row, then it fills rows in turn). Empty when a row count limit
// would be passed: the caller's area holds only so many rows.
std::vector<MemoryMapLayout::Span> MemoryMapLayout::flow(double bytesPerPixel, std::size_t segments, QPointF *end) const
{
    const std::size_t limit = std::max<std::size_t>(
        1, std::size_t((m_area.height() + m_rowGap) / (m_rowHeight + m_rowGap)));
    const qreal width = m_area.width();
    std::vector<Span> spans;
    std::size_t row = 0;
    qreal x = 0;
    for (std::size_t i = 0; i < segments; ++i) {
        const qreal w = segmentWidth(m_sizes[i], bytesPerPixel);
        if (x > 0 && x + w > width && w <= width) {
            ++row;
            x = 0;
        }
        const double bytesPerPiece = double(m_sizes[i]) / w;
        qreal done = 0;
        while (done < w - 1e-9) {
            if (x >= width - 0.5) {
                ++row;
                x = 0;
            }
            const qreal take = std::min(w - done, width - x);
            const Bytes from = Bytes(std::llround(done * bytesPerPiece));
            const Bytes to = done + take >= w - 1e-9 ? m_sizes[i] : Bytes(std::llround((done + take) * bytesPerPiece));
            spans.push_back(Span{row, x, take, from, to});
            done += take;
            x += take;
        }
        x += kSegmentGap;
        if (row >= limit)
            return {};
    }
    if (end) {
        qreal y = m_area.top() + qreal(row) * (m_rowHeight + m_rowGap);
        *end = QPointF(m_area.left() + std::min(x, width), y);
    }
    return spans;
}

// The blocks of one segment cut into the segment's spans, at each span's own scale.
void MemoryMapLayout::place(const MemorySnapshot &snapshot, const std::vector<Span> &spans, std::size_t segment)
{
    const SnapshotSegment &s = snapshot.segments[segment];
    for (const Span &span : spans) {
        const qreal top = m_area.top() + qreal(span.row) * (m_rowHeight + m_rowGap);
        const QRectF rect(m_area.left() + span.x, top, span.width, m_rowHeight);
        m_segmentRects[segment].push_back(rect);
        const double scale = span.width / double(std::max<Bytes>(1, span.to - span.from));
        for (std::size_t b = 0; b < s.blocks.size(); ++b) {
            const Bytes lo = std::max(s.blocks[b].address - s.base, span.from);
            const Bytes hi = std::min(s.blocks[b].address - s.base + s.blocks[b].size, span.to);
            if (lo >= hi)
                continue;
            const qreal x0 = rect.left() + qreal(double(lo - span.from) * scale);
            const qreal x1 = rect.left() + qreal(double(hi - span.from) * scale);
            m_pieces.push_back(Piece{QRectF(x0, top, x1 - x0, m_rowHeight), segment, b,
                                     lo - (s.blocks[b].address - s.base), hi - (s.blocks[b].address - s.base)});
        }
    }
}

std::optional<std::size_t> MemoryMapLayout::pieceAt(const QPointF &point) const
{
    std::optional<std::size_t> nearest;
    qreal best = 3; // pixels: a sub-pixel block can still be hovered
    for (std::size_t i = 0; i < m_pieces.size(); ++i) {
        const QRectF &r = m_pieces[i].rect;
        if (point.y() < r.top() || point.y() > r.bottom())
            continue;
        const qreal distance = point.x() < r.left() ? r.left() - point.x() : point.x() > r.right() ? point.x() - r.right() : 0;
        if (distance < best || (distance == 0 && best == 0 && r.width() < m_pieces[*nearest].rect.width())) {
            best = distance;
            nearest = i;
        }
    }
    return nearest;
}

} // namespace rematlens
