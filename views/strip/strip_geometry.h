#pragma once

#include <QRectF>

#include <optional>

namespace rematlens {

// Where things go in a feasibility strip panel: the overhead plot on top, one row of cells per
// policy below, axes around. Plain arithmetic, so it is tested on its own; StripPainter fills
// in the sizes from the font.
struct StripGeometry {
    QRectF bounds;          // the whole widget
    int columns = 0;        // grid points
    int rows = 0;           // policies
    double labelWidth = 110;
    double topAxisHeight = 28;
    double bottomAxisHeight = 34;
    double rightMargin = 16;
    double plotFraction = 0.45; // share of the height for the overhead plot
    double cellAreaHeight = 0;  // when positive, the rows' height; the plot takes the rest
    double plotGap = 10;        // between the plot and the first row
    double rowGap = 2;          // between rows of cells (hole markers go there)

    QRectF plotArea() const;    // the overhead curves
    QRectF cellArea() const;    // all rows of cells
    QRectF cell(int row, int column) const;
    QRectF rowRect(int row) const;
    double columnCenter(int column) const;
    // The column under x, clamped into the grid; nothing when there is no grid.
    std::optional<int> columnAt(double x) const;
    std::optional<int> rowAt(double y) const;
    // y of an overhead value in [1, limit] inside the plot area.
    double overheadY(double overhead, double limit) const;
};

} // namespace rematlens
