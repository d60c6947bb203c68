#pragma once

#include "views/figure/figure_source.h"
#include "views/memory/memory_map_layout.h"
#include "views/memory/memory_map_plot.h"

#include <QColor>
#include <QStringList>

#include <memory>
#include <vector>

namespace rematlens {

// The memory map as a drawing, for the dock and for figures alike: a heading with the totals
// and the failure, a legend, then the segments along the address axis with their blocks
// coloured by tensor, free blocks hatched, and the failing request where it could not fit.
class MemoryMapFigure : public FigureSource {
public:
    explicit MemoryMapFigure(std::shared_ptr<const MemoryMapPlot> plot = nullptr);

    const std::shared_ptr<const MemoryMapPlot> &plot() const { return m_plot; }
    // Where the segments go within `bounds` in this style, as paintFigure draws them.
    std::optional<MemoryMapLayout> layoutFor(const QRectF &bounds, const FigureStyle &style) const;
    // The failing request's rectangle in that layout, for a snapshot taken at a failure.
    std::optional<QRectF> requestRect(const MemoryMapLayout &layout) const;

    void paintFigure(QPainter &painter, const QRectF &bounds, const FigureStyle &style) const override;
    QString figureCsv() const override;
    QString figureTitle() const override;

    static QColor tensorColour(TensorId tensor, const FigureStyle &style);
    static QColor freeColour();

private:
    // The header's texts, each wrapped onto the lines the figure's width needs.
    struct Header {
        QStringList heading;
        QStringList totals;
        QStringList failure;
    };
    enum class Swatch { Tensors, Free, Unreserved, Failing };

    Bytes unreserved() const;
    Header header(const FigureStyle &style, qreal width) const;
    qreal headerHeight(const FigureStyle &style, qreal width) const;
    QString messageFor(const QRectF &box, const FigureStyle &style) const;
    void paintHeader(QPainter &painter, const QRectF &bounds, const FigureStyle &style) const;
    std::vector<Swatch> swatches() const;
    static QString swatchLabel(Swatch swatch);
    // Where each swatch of the legend goes: x from its left, and its row.
    std::vector<QPointF> legendPlaces(const FigureStyle &style, qreal width) const;
    void paintLegend(QPainter &painter, QPointF at, qreal width, const FigureStyle &style) const;
    void paintSwatch(QPainter &painter, Swatch swatch, const QRectF &r, const FigureStyle &style) const;
    void paintBlocks(QPainter &painter, const MemoryMapLayout &layout, const FigureStyle &style) const;
    void paintRequest(QPainter &painter, const MemoryMapLayout &layout, const FigureStyle &style) const;
    static void hatch(QPainter &painter, const QRectF &rect, const QColor &colour, qreal spacing);

    std::shared_ptr<const MemoryMapPlot> m_plot;
};

} // namespace rematlens
