#pragma once

#include <QLineF>
#include <QRectF>

#include <vector>

namespace rematlens {

// The 45° lines hatching a rectangle, each already cut at its sides: SVG files written by Qt
// keep no clip, so a hatch drawn under a clip alone would run out of its hole in them.
// Lines sit at x = start + k * spacing along the bottom (rising) or the top (falling) edge.
struct HatchLines {
    static std::vector<QLineF> rising(const QRectF &span, double start, double spacing);
    static std::vector<QLineF> falling(const QRectF &span, double start, double spacing);
    // Cuts a line running left to right to the span's sides; false when nothing is left.
    static bool cut(QLineF &line, const QRectF &span);
};

} // namespace rematlens
