#include "views/strip/hatch_lines.h"

#include <algorithm>

namespace rematlens {

// `line` runs left to right at 45°; the part with left <= x <= right (its y stays within the
// span's height by construction).
bool HatchLines::cut(QLineF &line, const QRectF &span)
{
    const double x0 = line.x1();
    const double x1 = line.x2();
    const double from = std::max(x0, span.left());
    const double to = std::min(x1, span.right());
    if (!(to > from) || !(x1 > x0))
        return false;
    const auto yAt = [&](double x) { return line.y1() + (line.y2() - line.y1()) * (x - x0) / (x1 - x0); };
    line = QLineF(from, yAt(from), to, yAt(to));
    return true;
}

std::vector<QLineF> HatchLines::rising(const QRectF &span, double start, double spacing)
{
    std::vector<QLineF> lines;
    if (!(spacing > 0) || span.width() <= 0 || span.height() <= 0)
        return lines;
    for (double x = start; x < span.right(); x += spacing) {
        QLineF line(x, span.bottom(), x + span.height(), span.top());
        if (cut(line, span))
            lines.push_back(line);
    }
    return lines;
}

std::vector<QLineF> HatchLines::falling(const QRectF &span, double start, double spacing)
{
    std::vector<QLineF> lines;
    if (!(spacing > 0) || span.width() <= 0 || span.height() <= 0)
        return lines;
    for (double x = start; x < span.right(); x += spacing) {
        QLineF line(x, span.top(), x + span.height(), span.bottom());
        if (cut(line, span))
            lines.push_back(line);
    }
    return lines;
}

} // namespace rematlens
