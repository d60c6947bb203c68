#pragma once

#include "views/figure/figure_style.h"

#include <QRectF>
#include <QStringList>

#include <vector>

class QPainter;

namespace rematlens {

// The one legend of a strip figure: a swatch per outcome shown, the hole mark (and the mark of
// unmapped budgets when a map left some), and a line per
// policy's overhead curve. Items flow left to right and wrap onto more lines when narrow.
class StripLegend {
public:
    struct PolicyLine {
        QString name;
        int colour; // the policy's index in the figure's style
    };
    // A coloured swatch of its own (the states of the static schedules' rows).
    struct Swatch {
        QColor colour;
        QString label;
    };
    // unmapped: an entry for budgets an exact map has not classified.
    StripLegend(const FigureStyle &style, std::vector<Outcome> outcomes, std::vector<PolicyLine> policies,
                bool unmapped = false, const std::vector<Swatch> &swatches = {});

    double height(double width) const;
    // The entries' labels, in order.
    QStringList labels() const;
    void paint(QPainter &p, const QRectF &bounds) const;

private:
    struct Item {
        enum class Kind { Outcome, Hole, Unmapped, Policy, Swatch } kind;
        int index; // the outcome, or the policy's colour
        QString label;
        QString shortLabel; // when the long labels would take more than two lines
        QColor colour = {}; // of a Swatch
    };
    double itemWidth(const Item &item, bool brief) const;
    // Items per line, in order; brief (short labels) when the long ones need over two lines.
    std::vector<std::vector<Item>> lines(double width, bool &brief) const;
    std::vector<std::vector<Item>> flow(double width, bool brief) const;
    void paintItem(QPainter &p, const Item &item, bool brief, const QPointF &topLeft) const;

    FigureStyle m_style;
    std::vector<Item> m_items;
};

} // namespace rematlens
