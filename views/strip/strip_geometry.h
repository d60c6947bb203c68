#pragma once

#include <QRectF>

#include <optional>

namespace rematlens {

// Where things go in a feasibility strip panel: the overhead plot on top, one row of cells per
// policy below, axes around. Plain arithmetic, so it is tested on its own; StripPainter fills
// in the sizes from the font.
struct StripGeometry {
    QRectF bounds;   // the whole widget
    int columns = 0; // grid points
    int rows = 0;    // policies
    int extraRows = 0; // static schedules, below the policies
    double labelWidth = 110;
    double topAxisHeight = 28;
    double bottomAxisHeight = 34;
    double rightMargin = 16;
    double plotFraction = 0.45; // share of the height for the overhead plot
    double cellAreaHeight = 0;  // when positive, the rows' height; the plot takes the rest
    double plotGap = 10;        // between the plot and the first row
    double rowGap = 2;          // between rows of cells (hole markers go there)
    // The columns shown, [viewFrom, viewTo) in column units (fractions allowed); empty: all.
    double viewFrom = 0;
    double viewTo = 0;
    // Budgets in bytes along the same axis (exact maps draw intervals at their bounds): the
    // budget at column position 0 and the bytes one column spans; 0 when unknown.
    double budgetAtColumnZero = 0;
    double bytesPerColumn = 0;

    int totalRows() const { return rows + extraRows; }
    double firstVisible() const { return viewTo > viewFrom ? viewFrom : 0; }
    double visibleColumns() const { return viewTo > viewFrom ? viewTo - viewFrom : columns; }

    QRectF plotArea() const; // the overhead curves
    QRectF cellArea() const; // all rows of cells
    QRectF cell(int row, int column) const;
    QRectF rowRect(int row) const;
    double columnCenter(int column) const;
    // The column position (fractional) under x, and the column under x clamped into the grid;
    // nothing when there is no grid.
    double columnPosition(double x) const;
    std::optional<int> columnAt(double x) const;
    std::optional<int> rowAt(double y) const;
    // x of a budget in bytes, and the budget (fractional) under x.
    double xOfBudget(double bytes) const;
    double budgetAt(double x) const;
    double columnOfBudget(double bytes) const;
    // `r` cut to the cells' sides (nothing is drawn past the axis ends): zoomed down to bytes, a grid cell spans
    // billions of pixels, more than a raster engine's fixed-point coordinates hold.
    QRectF visiblePart(const QRectF &r) const;
    // y of an overhead value in [1, limit] inside the plot area.
    double overheadY(double overhead, double limit) const;
};

} // namespace rematlens
