#include "views/cascade/cascade_view.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace rematlens {

namespace {
constexpr qreal kMinimumWidth = 420;
}

CascadeView::CascadeView(QWidget *parent) : QWidget(parent)
{
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
    m_message = tr("Select a failing run to see its cascade");
}

void CascadeView::setDiagram(CascadeDiagram diagram)
{
    m_diagram = std::move(diagram);
    m_message.clear();
    changed();
}

void CascadeView::showMessage(const QString &message)
{
    m_diagram = CascadeDiagram();
    m_message = message;
    changed();
}

void CascadeView::changed()
{
    m_figureDiagram.reset();
    updateSize();
    update();
}

void CascadeView::setFigureStyle(const FigureStyle &style)
{
    m_style = style;
    update();
}

// Full size, so that a scroll area around the view scrolls instead of shrinking the text.
void CascadeView::updateSize()
{
    const QSize wanted = sizeHint();
    setMinimumSize(m_diagram.isEmpty() ? QSize(0, 0) : wanted);
    updateGeometry();
}

QSize CascadeView::sizeHint() const
{
    if (m_diagram.isEmpty())
        return QSize(480, 240);
    const qreal width = std::max(kMinimumWidth, m_diagram.layoutSize().width() + 12);
    return m_diagram.preferredSize(width).toSize();
}

void CascadeView::paintFigure(QPainter &painter, const QRectF &bounds, const FigureStyle &style) const
{
    diagramAt(style.fontSize).paint(painter, bounds, style);
}

// Boxes measured at the screen's text size would carry it into the figure (12 points in a
// column of 8-point text, and no room left for the graph): a figure lays the diagram out at its
// own size.
const CascadeDiagram &CascadeView::diagramAt(qreal fontSize) const
{
    if (m_diagram.isEmpty() || m_diagram.options().fontSize == fontSize)
        return m_diagram;
    if (!m_figureDiagram || m_figureDiagram->options().fontSize != fontSize)
        m_figureDiagram = m_diagram.atFontSize(fontSize);
    return *m_figureDiagram;
}

QString CascadeView::figureCsv() const
{
    return m_diagram.isEmpty() ? QString() : m_diagram.csv();
}

QString CascadeView::figureTitle() const
{
    return m_diagram.title().isEmpty() ? QStringLiteral("cascade") : m_diagram.title();
}

void CascadeView::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    if (!m_message.isEmpty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, m_message);
        return;
    }
    m_diagram.paint(painter, QRectF(rect()), m_style);
}

void CascadeView::activateAt(const QPointF &point)
{
    const std::optional<std::size_t> hit = m_diagram.boxAt(QRectF(rect()), point);
    if (!hit)
        return;
    const CascadeDiagram::Box &box = m_diagram.boxes()[*hit];
    if (!box.node) {
        m_diagram.unfold(box.foldedInto);
        changed();
        return;
    }
    const CascadeNode &node = m_diagram.cascade().nodes[*box.node];
    emit momentActivated(node.step, node.clock);
}

// A box's tooltip says everything the box says (small boxes elide), and what a click does.
bool CascadeView::event(QEvent *event)
{
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    auto *help = static_cast<QHelpEvent *>(event);
    const std::optional<std::size_t> hit = m_diagram.boxAt(QRectF(rect()), help->pos());
    if (!hit) {
        QToolTip::showText(help->globalPos(), toolTip(), this);
        return true;
    }
    const CascadeDiagram::Box &box = m_diagram.boxes()[*hit];
    const QString action = box.node ? tr("Click: show this moment in the timeline; right-click: keep resident, causes")
                                    : tr("Click: unfold these evictions");
    QToolTip::showText(help->globalPos(), box.lines.join(QLatin1Char('\n')) + QStringLiteral("\n\n") + action, this);
    return true;
}

void CascadeView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton)
        activateAt(event->position());
}

void CascadeView::contextMenuEvent(QContextMenuEvent *event)
{
    const std::optional<std::size_t> hit = m_diagram.boxAt(QRectF(rect()), event->pos());
    if (!hit || !m_diagram.boxes()[*hit].node || !m_diagram.program())
        return;
    const CascadeNode &node = m_diagram.cascade().nodes[*m_diagram.boxes()[*hit].node];
    const Program &program = *m_diagram.program();
    const TensorId root = program.storages[program.storageOf(node.tensor)].root;
    QMenu menu(this);
    const QString name = QString::fromStdString(program.tensors[root].name);
    QAction *keep = menu.addAction(tr("Keep %1 resident and rerun").arg(name));
    QAction *show = menu.addAction(tr("Show this moment in the timeline"));
    QAction *causes = menu.addAction(tr("Show what led to this"));
    causes->setEnabled(node.kind != CascadeNode::Kind::Failure &&
                       *m_diagram.boxes()[*hit].node != m_diagram.cascade().focus);
    QAction *chosen = menu.exec(event->globalPos());
    if (chosen == keep)
        emit keepResidentRequested(root);
    else if (chosen == show)
        emit momentActivated(node.step, node.clock);
    else if (chosen == causes)
        emit causesRequested(node.event);
}

} // namespace rematlens
