#include "min_max_decimator.h"

#include <algorithm>
#include <array>

namespace rematlens {

MinMaxDecimator::MinMaxDecimator(double from, double to, std::size_t columns)
    : m_from(from), m_to(std::max(to, from)), m_columns(std::max<std::size_t>(columns, 1))
{
}

std::size_t MinMaxDecimator::columnOf(double x) const
{
    if (m_to <= m_from || x <= m_from)
        return 0;
    if (x >= m_to)
        return m_columns - 1;
    return std::min(m_columns - 1, static_cast<std::size_t>((x - m_from) / (m_to - m_from) * double(m_columns)));
}

std::vector<PlotPoint> MinMaxDecimator::decimate(const std::vector<double> &xs, const std::vector<double> &ys) const
{
    std::vector<PlotPoint> out;
    const std::size_t n = std::min(xs.size(), ys.size());
    if (n == 0)
        return out;
    // [begin, end): the samples inside the range, widened by one on each side.
    std::size_t begin = std::size_t(std::lower_bound(xs.begin(), xs.begin() + std::ptrdiff_t(n), m_from) - xs.begin());
    std::size_t end = std::size_t(std::upper_bound(xs.begin(), xs.begin() + std::ptrdiff_t(n), m_to) - xs.begin());
    if (begin > 0)
        --begin;
    if (end < n)
        ++end;
    out.reserve(std::min(end - begin, m_columns * 4 + 2));
    std::size_t first = begin;
    while (first < end) {
        const std::size_t column = columnOf(xs[first]);
        std::size_t last = first;
        while (last + 1 < end && columnOf(xs[last + 1]) == column)
            ++last;
        flushColumn(xs, ys, first, last, out);
        first = last + 1;
    }
    return out;
}

void MinMaxDecimator::flushColumn(const std::vector<double> &xs, const std::vector<double> &ys, std::size_t first,
                                  std::size_t last, std::vector<PlotPoint> &out) const
{
    std::size_t lowest = first;
    std::size_t highest = first;
    for (std::size_t i = first + 1; i <= last; ++i) {
        if (ys[i] < ys[lowest])
            lowest = i;
        if (ys[i] > ys[highest])
            highest = i;
    }
    std::array<std::size_t, 4> keep{first, lowest, highest, last};
    std::sort(keep.begin(), keep.end());
    const auto unique = std::unique(keep.begin(), keep.end());
    for (auto it = keep.begin(); it != unique; ++it)
        out.push_back(PlotPoint{xs[*it], ys[*it], *it});
}

} // namespace rematlens
