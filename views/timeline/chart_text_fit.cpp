#include "views/timeline/chart_text_fit.h"

#include <QFontMetricsF>
#include <QTextDocument>

#include <algorithm>
#include <cmath>

namespace rematlens {

// As wide as the document of one line: the advance, the margin on either side and a point for
// the cursor; measured without laying a document out, as labels are measured by the dozen.
qreal ChartTextFit::textWidth(const QFont &font, const QString &text)
{
    return QFontMetricsF(font).horizontalAdvance(text) + 2 * kTextMargin + 1;
}

// Measured as Qt Charts measures: a rich-text document of one line in the font, with its
// margin (its lines are whole points high).
qreal ChartTextFit::textHeight(const QFont &font)
{
    QTextDocument document;
    document.setDocumentMargin(kTextMargin);
    document.setDefaultFont(font);
    document.setPlainText(QStringLiteral("..."));
    return document.size().height();
}

bool ChartTextFit::xLabelsFit(qreal widest, int count, qreal axisWidth, qreal gap)
{
    return count <= 1 || widest + 2 * kLabelPadding + gap <= axisWidth / count;
}

// A point to spare for rounding.
int ChartTextFit::yTicksWithin(qreal contentBottom, const QFont &labels)
{
    const qreal perTick = textHeight(labels) + 2 * kLabelPadding + 1;
    return std::max(1, int(std::floor(contentBottom / perTick)));
}

qreal ChartTextFit::yAxisWidth(qreal widestLabel, const QFont *title)
{
    const qreal width = widestLabel + kLabelPadding + 1;
    return title ? width + textHeight(*title) + 2 * kTitlePadding : width;
}

// Rounded down to whole points, as Qt Charts does; a point to spare.
qreal ChartTextFit::yAxisShare(qreal contentWidth)
{
    return std::floor(kMaxAxisPortion * contentWidth / 2) - 1;
}

// Labels, their padding from the axis line and one point more; the title with its padding.
qreal ChartTextFit::xAxisHeight(const QFont &labels, const QFont *title)
{
    const qreal height = textHeight(labels) + kLabelPadding + 1;
    return title ? height + textHeight(*title) + 2 * kTitlePadding : height;
}

// Qt Charts rounds the axes' share down to whole points; a point more keeps rounding of the
// text's own height on the safe side.
bool ChartTextFit::xAxisFits(qreal axisHeight, qreal contentHeight)
{
    return axisHeight + 1 <= std::floor(kMaxAxisPortion * contentHeight);
}

} // namespace rematlens
