#include "views/timeline/timeline_view.h"

#include "views/common/number_format.h"

#include <QChart>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLineSeries>
#include <QToolTip>
#include <QValueAxis>

#include <cmath>

namespace rematlens {

namespace {

FigureStyle screenStyle(const QFont &font)
{
    FigureStyle style;
    style.fontSize = font.pixelSize() > 0 ? font.pixelSize() : font.pointSizeF() * 4.0 / 3.0;
    style.lineWidth = 1.2;
    return style;
}

} // namespace

TimelineView::TimelineView(QWidget *parent) : QChartView(new QChart, parent)
{
    m_chartContent = std::make_unique<TimelineChart>(chart(), screenStyle(font()));
    setRenderHint(QPainter::Antialiasing);
    setRubberBand(QChartView::HorizontalRubberBand);
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setToolTip(tr("Memory in use against the model step or the clock.\n"
                  "Wheel or +/- zooms, drag zooms to a range, arrows pan, 0 or double click resets.\n"
                  "Under an allocator model a click shows that step in the memory map."));
    connect(m_chartContent->xAxis(), &QValueAxis::rangeChanged, this, &TimelineView::followAxis);
    m_chartContent->showRange(0, 1, 100);
}

TimelineView::~TimelineView() = default;

void TimelineView::setRuns(std::shared_ptr<const Program> program, std::shared_ptr<const InspectedRun> run,
                           std::shared_ptr<const InspectedRun> comparison)
{
    setPlot(std::make_shared<const TimelinePlot>(
        TimelinePlot::build(std::move(program), std::move(run), std::move(comparison), m_axis)));
}

void TimelineView::setPlot(std::shared_ptr<const TimelinePlot> plot)
{
    // Clicking through budgets of one trace keeps the zoom, so runs compare at one place.
    const bool sameTrace = plot && plot->program && plot->program == m_figure.plot().program && plot->axis == m_axis;
    if (plot)
        m_axis = plot->axis;
    const ZoomWindow previous = m_window;
    m_figure = TimelineFigure(std::move(plot));
    m_chartContent->setPlot(&m_figure.plot());
    placeMarkedStep();
    m_window = ZoomWindow::whole(m_figure.plot().extent(), m_axis == TimelineAxis::Step ? 4.0 : 1.0);
    if (sameTrace && previous.zoomed())
        m_window.show(previous.from, previous.to);
    redraw();
}

void TimelineView::setAxis(TimelineAxis axis)
{
    if (axis == m_axis)
        return;
    m_axis = axis;
    const TimelinePlot &shown = m_figure.plot();
    setPlot(
        std::make_shared<const TimelinePlot>(TimelinePlot::build(shown.program, shown.run, shown.comparison, axis)));
}

void TimelineView::redraw()
{
    m_redrawing = true;
    const int columns = int(std::max<qreal>(chart()->plotArea().width(), 200));
    m_chartContent->showRange(m_window.from, m_window.to, columns);
    m_figure.setRange(m_window.zoomed() ? std::optional(std::pair(m_window.from, m_window.to)) : std::nullopt);
    m_redrawing = false;
    emit rangeChanged(m_window.from, m_window.to);
}

// Qt Charts' own rubber band and right-click zoom move the axis; the decimation follows.
void TimelineView::followAxis(qreal from, qreal to)
{
    if (m_redrawing)
        return;
    m_window.show(m_chartContent->dataX(from), m_chartContent->dataX(to));
    redraw();
}

void TimelineView::showRange(double from, double to)
{
    m_window.show(from, to);
    redraw();
}

void TimelineView::refresh()
{
    setPlot(m_figure.sharedPlot()); // the same plot: the zoom stays
}

void TimelineView::resetZoom()
{
    m_window.reset();
    redraw();
}

void TimelineView::showStep(std::uint32_t step)
{
    if (plot().empty())
        return;
    const double x = plot().track->xOfStep(step);
    const double width = m_window.zoomed() ? m_window.width() : m_window.extent / 20;
    m_window.show(x - width / 2, x + width / 2);
    redraw();
}

void TimelineView::markStep(std::optional<std::uint32_t> step)
{
    m_markedStep = step;
    placeMarkedStep();
}

void TimelineView::placeMarkedStep()
{
    const TimelinePlot &p = plot();
    m_chartContent->setMarkedX(m_markedStep && !p.empty() ? std::optional(p.track->xOfStep(*m_markedStep))
                                                          : std::nullopt);
}

double TimelineView::xAt(const QPointF &widgetPos) const
{
    const QPointF scene = mapToScene(widgetPos.toPoint());
    return m_chartContent->dataX(chart()->mapToValue(chart()->mapFromScene(scene), m_chartContent->memorySeries()).x());
}

double TimelineView::pixelWidthInX() const
{
    const qreal width = chart()->plotArea().width();
    return width > 0 ? m_window.width() / width : 1.0;
}

void TimelineView::wheelEvent(QWheelEvent *event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0 || plot().empty())
        return;
    m_window.zoom(std::pow(0.8, steps), xAt(event->position()));
    redraw();
    event->accept();
}

void TimelineView::keyPressEvent(QKeyEvent *event)
{
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        m_window.zoom(0.5, (m_window.from + m_window.to) / 2);
        break;
    case Qt::Key_Minus:
        m_window.zoom(2.0, (m_window.from + m_window.to) / 2);
        break;
    case Qt::Key_Left:
        m_window.pan(-0.25);
        break;
    case Qt::Key_Right:
        m_window.pan(0.25);
        break;
    case Qt::Key_0:
    case Qt::Key_Home:
        m_window.reset();
        break;
    default:
        QChartView::keyPressEvent(event);
        return;
    }
    redraw();
    event->accept();
}

void TimelineView::mouseMoveEvent(QMouseEvent *event)
{
    QChartView::mouseMoveEvent(event);
    const QString text = hoverTextAt(event->position());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

// Over the plot the hover text of the point; elsewhere (axes, legend, an empty chart) none.
QString TimelineView::hoverTextAt(const QPointF &viewportPos) const
{
    if (plot().empty() || !chart()->plotArea().contains(chart()->mapFromScene(mapToScene(viewportPos.toPoint()))))
        return {};
    return hoverText(xAt(viewportPos), pixelWidthInX() * 4);
}

// A rest of the mouse over the plot asks for a tooltip: the hover text stays there, and the
// chart's own tooltip (how to zoom) is shown only off the plot.
bool TimelineView::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto *help = static_cast<QHelpEvent *>(event);
        const QString text = hoverTextAt(help->pos());
        if (!text.isEmpty()) {
            QToolTip::showText(help->globalPos(), text, this);
            return true;
        }
    }
    return QChartView::viewportEvent(event);
}

void TimelineView::mousePressEvent(QMouseEvent *event)
{
    m_pressedAt = event->position();
    QChartView::mousePressEvent(event);
}

void TimelineView::mouseReleaseEvent(QMouseEvent *event)
{
    const bool click = event->button() == Qt::LeftButton && (event->position() - m_pressedAt).manhattanLength() < 4;
    QChartView::mouseReleaseEvent(event);
    if (!click || !chart()->plotArea().contains(chart()->mapFromScene(mapToScene(event->pos()))))
        return;
    if (const std::optional<std::uint32_t> step = stepAt(xAt(event->position())))
        emit stepClicked(*step);
}

std::optional<std::uint32_t> TimelineView::stepAt(double x) const
{
    const TimelinePlot &p = plot();
    if (p.empty())
        return std::nullopt;
    const std::size_t i = p.track->sampleAt(x);
    if (i == std::size_t(-1))
        return std::nullopt;
    return p.run->recording.samples[i].step;
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent *event)
{
    resetZoom();
    event->accept();
}

void TimelineView::resizeEvent(QResizeEvent *event)
{
    QChartView::resizeEvent(event);
    redraw();
}

QString TimelineView::hoverText(double x, double tolerance) const
{
    const TimelinePlot &p = plot();
    if (p.empty())
        return {};
    const TimelineTrack &track = *p.track;
    const std::size_t i = track.sampleAt(x);
    if (i == std::size_t(-1))
        return {};
    const TimelineSample &s = p.run->recording.samples[i];
    const QLocale c = numberLocale();
    QString text = QStringLiteral("step %1: %2\nclock %3\nmemory %4 bytes, locked %5 bytes\ndepth %6, evictable %7")
                       .arg(c.toString(s.step), p.describeStep(s.step), c.toString(qlonglong(s.clock)),
                            c.toString(qlonglong(s.memory)), c.toString(qlonglong(s.lockedBytes)), c.toString(s.depth),
                            c.toString(s.poolSize));
    if (track.hasAllocation()) {
        const double reserved = track.reserved()[i];
        const double allocated = track.allocated()[i];
        text += QStringLiteral("\nreserved %1 bytes, allocated %2 bytes, fragmentation %3 bytes")
                    .arg(c.toString(qlonglong(reserved)), c.toString(qlonglong(allocated)),
                         c.toString(qlonglong(reserved - allocated)));
    }
    if (const auto tensor = p.tensorOfStep(s.step))
        text += shapeLine(*tensor);
    if (const auto marker = track.evictionNear(x, tolerance)) {
        const ReplayEvent &event = p.run->recording.events[track.evictions()[*marker].event];
        text += QStringLiteral("\n") + p.describeEvent(event) + shapeLine(event.tensor);
    }
    return text;
}

void TimelineView::setSideFile(std::shared_ptr<const CaptureSideFile> sideFile)
{
    m_sideFile = std::move(sideFile);
}

// "\nx12: 16×64×56×56 float32"; a mutated tensor (x12$) has the shape of the name it replaced.
QString TimelineView::shapeLine(TensorId tensor) const
{
    const Program *program = plot().program.get();
    if (!m_sideFile || !program || tensor >= program->tensors.size())
        return {};
    std::string name = program->tensors[tensor].name;
    while (!name.empty() && name.back() == '$')
        name.pop_back();
    const std::string shape = m_sideFile->describe(name);
    if (shape.empty())
        return {};
    return QStringLiteral("\n%1: %2").arg(QString::fromStdString(program->tensors[tensor].name), QString::fromStdString(shape));
}

void TimelineView::paintFigure(QPainter &painter, const QRectF &bounds, const FigureStyle &style) const
{
    m_figure.paintFigure(painter, bounds, style);
}

QString TimelineView::figureCsv() const
{
    return m_figure.figureCsv();
}

QString TimelineView::figureTitle() const
{
    return m_figure.figureTitle();
}

KeyBindings TimelineView::keyBindings()
{
    return {
        {tr("Wheel"), tr("Zoom at the cursor")},
        {tr("+ / -"), tr("Zoom in / out around the centre")},
        {tr("Drag"), tr("Zoom to the range dragged across")},
        {tr("Left / Right"), tr("Pan a quarter of the view")},
        {tr("0 / Home, Double click"), tr("Show the whole run (reset the zoom)")},
        {tr("Hover"), tr("Name the step, its operator and tensor, memory, locked bytes, depth and eviction; "
                         "reserved and allocated bytes under an allocator model")},
        {tr("Click"), tr("Show that step in the memory map (under an allocator model)")},
    };
}

} // namespace rematlens
