#pragma once

#include "core/sim/run_result.h"

#include <QColor>
#include <QFont>
#include <Qt>

namespace rematlens {

// One look for every figure and view: font, line widths and colours per outcome and per
// policy. Figures are painted in points (1/72 in), so sizes here are points.
struct FigureStyle {
    enum class Palette { Default, ColourBlindSafe, GreyscaleSafe };

    Palette palette = Palette::Default;
    qreal fontSize = 8;    // points
    qreal lineWidth = 1.0; // data lines
    qreal axisWidth = 0.6; // axes and ticks

    // The style the widgets paint with: the default palette at the widget's font size (pixels).
    static FigureStyle screen(const QFont &widgetFont);

    QFont font(qreal scale = 1.0) const;
    QFont boldFont() const;
    QColor outcome(Outcome outcome) const;
    QColor policy(int index) const;
    // Solid in colour; solid, dashed, dotted in greyscale, where greys alone are hard to tell apart.
    Qt::PenStyle policyLine(int index) const;
    QColor hole() const; // outline, hatching and marker of a feasibility hole
    QColor selection() const;
    QColor budgetLine() const;
    QColor lockedFill() const;
    QColor rematShade() const;
    QColor eviction() const;
    QColor nesting() const; // the timeline's rematerialization depth: apart from the evictions' pink
    QColor divergence() const;
    QColor failure() const;
    // An allocator model's memory: reserved segments, allocated blocks, and the fragmentation
    // between them (also the colour of free blocks in the memory map).
    QColor reserved() const;
    QColor allocated() const;
    QColor fragmentationFill() const;
    QColor ink() const; // text and axes
    QColor grid() const;
};

} // namespace rematlens
