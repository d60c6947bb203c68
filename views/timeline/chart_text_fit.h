#pragma once

#include <QString>

class QFont;

namespace rematlens {

// The room Qt Charts gives its texts, which it elides to "..." once a text needs more: each
// x-axis label gets the axis width over the tick count, less 4 points either side, and each
// label of a vertical axis the chart's height down to its content's bottom over the tick count,
// less as much; all x axes together get at most 0.4 of the chart's height (less its margins),
// their titles included. Its text items keep half a point of margin all round. The timeline
// asks here what fits, and picks fewer ticks or leaves a title out rather than let Qt Charts
// cut a text.
class ChartTextFit {
public:
    static qreal textWidth(const QFont &font, const QString &text);
    static qreal textHeight(const QFont &font);
    // Whether `count` labels, the widest `widest` wide, stand whole on an x axis `axisWidth` long
    // with at least `gap` between neighbours.
    static bool xLabelsFit(qreal widest, int count, qreal axisWidth, qreal gap);
    // The most ticks a vertical axis labels whole in a chart whose content ends `contentBottom`
    // below its top.
    static int yTicksWithin(qreal contentBottom, const QFont &labels);
    // The width a vertical axis asks for: its labels, the widest `widestLabel` wide, and its
    // title when it has one; and what Qt Charts gives each of a chart's two vertical axes.
    static qreal yAxisWidth(qreal widestLabel, const QFont *title);
    static qreal yAxisShare(qreal contentWidth);
    // The height an x axis asks for: its labels, and its title when it has one.
    static qreal xAxisHeight(const QFont &labels, const QFont *title);
    // Whether an x axis that high keeps its text whole in a chart whose content is this high.
    static bool xAxisFits(qreal axisHeight, qreal contentHeight);

private:
    static constexpr qreal kLabelPadding = 4;
    static constexpr qreal kTitlePadding = 2;
    static constexpr qreal kTextMargin = 0.5;
    static constexpr qreal kMaxAxisPortion = 0.4;
};

} // namespace rematlens
