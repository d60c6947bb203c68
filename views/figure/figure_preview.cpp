#include "views/figure/figure_preview.h"
#include "views/figure/figure_sizes.h"

#include <QPainter>

namespace rematlens {

namespace {
constexpr double kDeskMargin = 12.0; // pixels of desk around the page
} // namespace

FigurePreview::FigurePreview(QWidget *parent) : QWidget(parent)
{
    setAttribute(Qt::WA_OpaquePaintEvent);
    setToolTip(tr("The figure as it will be written: same drawing, scaled to fit"));
}

void FigurePreview::setSource(const FigureSource *source)
{
    m_source = source;
    update();
}

void FigurePreview::setFigure(const QSizeF &inches, const FigureStyle &style)
{
    m_inches = inches;
    m_style = style;
    update();
}

double FigurePreview::scale() const
{
    const QSizeF points = m_inches * FigureSizes::kPointsPerInch;
    if (points.isEmpty())
        return 1.0;
    const double across = (width() - 2 * kDeskMargin) / points.width();
    const double down = (height() - 2 * kDeskMargin) / points.height();
    return std::max(0.01, std::min(across, down));
}

QRectF FigurePreview::pageRect() const
{
    const QSizeF page = m_inches * FigureSizes::kPointsPerInch * scale();
    return QRectF((width() - page.width()) / 2, (height() - page.height()) / 2, page.width(), page.height());
}

void FigurePreview::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), QColor(0x9A, 0x9A, 0x9A));
    const QRectF page = pageRect();
    p.fillRect(page.translated(2, 2), QColor(0, 0, 0, 60)); // a shadow: the page lifts off the desk
    p.fillRect(page, Qt::white);
    if (!m_source || m_inches.isEmpty())
        return;
    p.save();
    p.setClipRect(page);
    p.translate(page.topLeft());
    p.scale(scale(), scale());
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    m_source->paintFigure(p, QRectF(QPointF(0, 0), m_inches * FigureSizes::kPointsPerInch), m_style);
    p.restore();
}

} // namespace rematlens
