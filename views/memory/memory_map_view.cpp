#include "views/memory/memory_map_view.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace rematlens {

MemoryMapView::MemoryMapView(QWidget *parent) : QWidget(parent)
{
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
    setMouseTracking(true);
    m_message = tr("Select a run in the strip to see its memory map");
}

void MemoryMapView::setPlot(std::shared_ptr<const MemoryMapPlot> plot)
{
    m_figure = MemoryMapFigure(std::move(plot));
    m_message.clear();
    update();
}

void MemoryMapView::showMessage(const QString &message)
{
    m_figure = MemoryMapFigure();
    m_message = message;
    update();
}

FigureStyle MemoryMapView::screenStyle() const
{
    return FigureStyle::screen(font());
}

std::optional<MemoryMapLayout> MemoryMapView::layout() const
{
    return m_figure.layoutFor(QRectF(rect()), screenStyle());
}

QString MemoryMapView::hoverText(const QPointF &point) const
{
    const std::optional<MemoryMapLayout> shown = layout();
    if (!shown) // under the byte sum the whole explanation, however short the dock
        return m_message.isEmpty() && m_figure.plot() && m_figure.plot()->byteSum()
                   ? MemoryMapPlot::byteSumExplanation()
                   : QString();
    const MemoryMapPlot &plot = *m_figure.plot();
    if (const std::optional<QRectF> request = m_figure.requestRect(*shown); request && request->contains(point))
        return plot.failureText();
    const std::optional<std::size_t> piece = shown->pieceAt(point);
    if (!piece)
        return {};
    const MemoryMapLayout::Piece &p = shown->pieces()[*piece];
    const SnapshotSegment &segment = plot.snapshot->segments[p.segment];
    return plot.describeBlock(segment, segment.blocks[p.block]);
}

void MemoryMapView::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    if (!m_message.isEmpty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect().adjusted(12, 12, -12, -12), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, m_message);
        return;
    }
    m_figure.paintFigure(painter, QRectF(rect()), screenStyle());
}

void MemoryMapView::mouseMoveEvent(QMouseEvent *event)
{
    const QString text = hoverText(event->position());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

// A rest of the mouse asks for a tooltip: the hover text stays, rather than a parent's tooltip.
bool MemoryMapView::event(QEvent *event)
{
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    const auto *help = static_cast<QHelpEvent *>(event);
    const QString text = hoverText(help->pos());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(help->globalPos(), text, this);
    return true;
}

void MemoryMapView::paintFigure(QPainter &painter, const QRectF &bounds, const FigureStyle &style) const
{
    m_figure.paintFigure(painter, bounds, style);
}

QString MemoryMapView::figureCsv() const
{
    return m_figure.figureCsv();
}

QString MemoryMapView::figureTitle() const
{
    return m_figure.figureTitle();
}

} // namespace rematlens
