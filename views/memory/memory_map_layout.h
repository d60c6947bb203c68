#pragma once

#include "core/sim/memory_snapshot.h"

#include <QRectF>

#include <optional>
#include <vector>

namespace rematlens {

// Where a snapshot's segments and blocks land in a rectangle. The address axis reads like
// text: segments follow each other in address order along rows, a segment too long for the
// rest of a row continues on the next, and the scale (bytes per pixel) is the finest that
// fits every segment into the rows there is room for. Every segment is at least a few pixels
// wide so none vanishes.
class MemoryMapLayout {
public:
    // One drawn rectangle of one block (a block split over two rows has two pieces).
    struct Piece {
        QRectF rect;
        std::size_t segment;
        std::size_t block;
        Bytes from; // the bytes of the block this piece covers, as offsets into the block
        Bytes to;
    };

    // `unreserved` bytes of capacity no segment holds yet follow the segments, drawn apart.
    MemoryMapLayout(const MemorySnapshot &snapshot, const QRectF &area, qreal rowHeight, qreal rowGap,
                    Bytes unreserved = 0);

    const std::vector<Piece> &pieces() const { return m_pieces; }
    // The rectangles of each segment (one per row it spans).
    const std::vector<std::vector<QRectF>> &segmentRects() const { return m_segmentRects; }
    // The unreserved capacity after the segments (empty when there is none or it was left out).
    const std::vector<QRectF> &unreservedRects() const { return m_unreservedRects; }
    std::size_t rows() const { return m_rows; }
    double bytesPerPixel() const { return m_bytesPerPixel; }
    // Segments left out because even at the coarsest scale they did not fit.
    std::size_t hiddenSegments() const { return m_hidden; }
    std::optional<std::size_t> pieceAt(const QPointF &point) const;
    // Where the flow would put a new segment: after the last one.
    QPointF end() const { return m_end; }
    // The rows' horizontal extent.
    const QRectF &area() const { return m_area; }

private:
    struct Span {
        std::size_t row;
        qreal x;
        qreal width;
        Bytes from; // offsets into the segment
        Bytes to;
    };
    std::size_t rowsNeeded(double bytesPerPixel) const;
    std::vector<Span> flow(double bytesPerPixel, std::size_t segments, QPointF *end) const;
    void place(const MemorySnapshot &snapshot, const std::vector<Span> &spans, std::size_t segment);
    qreal segmentWidth(Bytes size, double bytesPerPixel) const;

    std::vector<Bytes> m_sizes;
    QRectF m_area;
    qreal m_rowHeight;
    qreal m_rowGap;
    std::size_t m_rows = 0;
    double m_bytesPerPixel = 1;
    std::size_t m_hidden = 0;
    QPointF m_end;
    std::vector<Piece> m_pieces;
    std::vector<std::vector<QRectF>> m_segmentRects;
    std::vector<QRectF> m_unreservedRects;
};

} // namespace rematlens
