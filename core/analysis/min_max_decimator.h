#pragma once

#include <cstddef>
#include <vector>

namespace rematlens {

struct PlotPoint {
    double x;
    double y;
    std::size_t source; // index of the sample it came from
    bool operator==(const PlotPoint &) const = default;
};

// Thins a polyline with sorted x for drawing `columns` pixel columns over [from, to]: each
// column keeps its first point, its minimum and maximum (in the order they occur) and its last,
// so every peak, trough and step edge a pixel could show survives. The points just outside
// the range are kept so lines run to the edges.
class MinMaxDecimator {
public:
    MinMaxDecimator(double from, double to, std::size_t columns);

    // xs sorted ascending; ys the same length.
    std::vector<PlotPoint> decimate(const std::vector<double> &xs, const std::vector<double> &ys) const;
    std::size_t columnOf(double x) const; // x clamped into [from, to]

private:
    void flushColumn(const std::vector<double> &xs, const std::vector<double> &ys, std::size_t first, std::size_t last,
                     std::vector<PlotPoint> &out) const;

    double m_from;
    double m_to;
    std::size_t m_columns;
};

} // namespace rematlens
