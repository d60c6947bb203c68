#include "views/strip/strip_geometry.h"

#include <algorithm>
#include <cmath>

namespace rematlens {

QRectF StripGeometry::plotArea() const
{
    const double left = bounds.left() + labelWidth;
    const double top = bounds.top() + topAxisHeight;
    const double usable = bounds.height() - topAxisHeight - bottomAxisHeight;
    const double height = cellAreaHeight > 0 ? usable - cellAreaHeight - plotGap : usable * plotFraction;
    return QRectF(left, top, std::max(0.0, bounds.width() - labelWidth - rightMargin), std::max(0.0, height));
}

QRectF StripGeometry::cellArea() const
{
    const QRectF plot = plotArea();
    const double top = plot.bottom() + plotGap;
    const double bottom = bounds.bottom() - bottomAxisHeight;
    return QRectF(plot.left(), top, plot.width(), std::max(0.0, bottom - top));
}

QRectF StripGeometry::rowRect(int row) const
{
    const QRectF area = cellArea();
    const double height = totalRows() > 0 ? area.height() / totalRows() : 0;
    return QRectF(area.left(), area.top() + row * height, area.width(), height);
}

QRectF StripGeometry::cell(int row, int column) const
{
    const QRectF r = rowRect(row);
    const double width = columns > 0 ? r.width() / visibleColumns() : 0;
    const double inset = totalRows() > 1 ? rowGap : 0.0;
    return QRectF(r.left() + (column - firstVisible()) * width, r.top() + inset / 2, width,
                  std::max(0.0, r.height() - inset));
}

double StripGeometry::columnCenter(int column) const
{
    const QRectF area = cellArea();
    const double width = columns > 0 ? area.width() / visibleColumns() : 0;
    return area.left() + (column + 0.5 - firstVisible()) * width;
}

double StripGeometry::columnPosition(double x) const
{
    const QRectF area = cellArea();
    return area.width() > 0 ? firstVisible() + (x - area.left()) / area.width() * visibleColumns() : 0;
}

std::optional<int> StripGeometry::columnAt(double x) const
{
    if (columns <= 0)
        return std::nullopt;
    return std::clamp(static_cast<int>(std::floor(columnPosition(x))), 0, columns - 1);
}

std::optional<int> StripGeometry::rowAt(double y) const
{
    const QRectF area = cellArea();
    if (totalRows() <= 0 || y < area.top() || y >= area.bottom())
        return std::nullopt;
    return std::clamp(static_cast<int>((y - area.top()) / area.height() * totalRows()), 0, totalRows() - 1);
}

double StripGeometry::columnOfBudget(double bytes) const
{
    return bytesPerColumn > 0 ? (bytes - budgetAtColumnZero) / bytesPerColumn : 0;
}

double StripGeometry::xOfBudget(double bytes) const
{
    const QRectF area = cellArea();
    const double visible = visibleColumns();
    return visible > 0 ? area.left() + (columnOfBudget(bytes) - firstVisible()) / visible * area.width() : area.left();
}

double StripGeometry::budgetAt(double x) const
{
    return budgetAtColumnZero + columnPosition(x) * bytesPerColumn;
}

QRectF StripGeometry::visiblePart(const QRectF &r) const
{
    const QRectF area = cellArea();
    const double left = std::max(r.left(), area.left());
    const double right = std::min(r.right(), area.right());
    return QRectF(left, r.top(), std::max(0.0, right - left), r.height());
}

double StripGeometry::overheadY(double overhead, double limit) const
{
    const QRectF plot = plotArea();
    const double span = std::max(1e-9, limit - 1.0);
    const double t = std::clamp((overhead - 1.0) / span, 0.0, 1.0);
    return plot.bottom() - t * plot.height();
}

} // namespace rematlens
