#include "views/timeline/hole_anatomy_figure.h"

#include "views/timeline/timeline_chart.h"

#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QLineSeries>
#include <QLocale>
#include <QPainter>
#include <QTextStream>

#include <algorithm>

namespace rematlens {

void HoleAnatomyFigure::setContent(std::shared_ptr<const TimelinePlot> passing, std::shared_ptr<const TimelinePlot> failing,
                                   std::vector<AnatomyMoment> moments, QString title)
{
    m_passing = std::move(passing);
    m_failing = std::move(failing);
    m_moments = std::move(moments);
    m_title = std::move(title);
}

std::vector<AnatomyMoment> HoleAnatomyFigure::momentsOf(const EdgeStory &story, const Program &program)
{
    using Run = AnatomyMoment::Run;
    const auto name = [&](TensorId t) { return QString::fromStdString(program.tensors[t].name); };
    std::vector<AnatomyMoment> moments;
    if (story.avoided) {
        const double step = story.avoided->step;
        moments.push_back({step, QStringLiteral("evicts %1").arg(name(story.avoided->victim)), Run::Passing});
        moments.push_back({step, QStringLiteral("keeps %1").arg(name(story.avoided->victim)), Run::Failing});
    }
    if (story.later) {
        moments.push_back({double(story.later->step), QStringLiteral("evicts %1").arg(name(story.later->tensor)),
                           Run::Failing});
        if (story.later->reuseStep)
            moments.push_back({double(*story.later->reuseStep),
                               QStringLiteral("rematerializes %1").arg(name(story.later->tensor)), Run::Failing});
    }
    const RunResult &failing = story.failing();
    if (isFailure(failing.outcome))
        moments.push_back({double(story.cascade.step),
                           failing.failure ? QStringLiteral("out of memory") : QStringLiteral("over the compute limit"),
                           Run::Failing});
    return moments;
}

void HoleAnatomyFigure::clear()
{
    setContent(nullptr, nullptr, {}, {});
}

// The passing run above, the failing run below, each with its own chart at half the height.
void HoleAnatomyFigure::paintFigure(QPainter &painter, const QRectF &bounds, const FigureStyle &style) const
{
    if (empty()) {
        painter.setPen(style.ink());
        painter.setFont(style.font());
        painter.drawText(bounds, Qt::AlignCenter, QStringLiteral("Select a hole to draw its anatomy"));
        return;
    }
    const double half = bounds.height() / 2;
    paintRun(painter, QRectF(bounds.left(), bounds.top(), bounds.width(), half), style, *m_passing,
             AnatomyMoment::Run::Passing);
    paintRun(painter, QRectF(bounds.left(), bounds.top() + half, bounds.width(), half), style, *m_failing,
             AnatomyMoment::Run::Failing);
}

void HoleAnatomyFigure::paintRun(QPainter &painter, const QRectF &whole, const FigureStyle &style,
                                 const TimelinePlot &plot, AnatomyMoment::Run run) const
{
    // Which run this is, on a line of its own above the chart: nothing of the chart covers it.
    QLocale c = QLocale::c();
    c.setNumberOptions(QLocale::DefaultNumberOptions);
    const QString title = (run == AnatomyMoment::Run::Passing ? QStringLiteral("Passes at %1 B") : QStringLiteral("Fails at %1 B"))
                              .arg(c.toString(qlonglong(plot.run->request.config.budget)));
    const QFont bold = style.boldFont();
    const double line = QFontMetricsF(bold).height() * 1.2;
    painter.save();
    painter.setPen(style.ink());
    painter.setFont(bold);
    painter.drawText(QRectF(whole.left() + 2, whole.top(), whole.width() - 4, line), Qt::AlignLeft | Qt::AlignVCenter, title);
    painter.restore();
    const QRectF bounds(whole.left(), whole.top() + line, whole.width(), whole.height() - line);
    QGraphicsScene scene;
    auto *chart = new QChart; // the scene owns it
    scene.addItem(chart);
    chart->setGeometry(QRectF(QPointF(0, 0), bounds.size()));
    TimelineChart timeline(chart, style);
    timeline.setPlot(&plot);
    timeline.setCompactLegend(true);
    chart->layout()->activate(); // a figure lays out at once, without the event loop
    const double extent = std::max(m_passing->extent(), m_failing->extent()); // one axis for both runs
    timeline.showRange(0, extent, int(chart->plotArea().width() * 2));
    chart->layout()->activate();
    scene.setSceneRect(QRectF(QPointF(0, 0), bounds.size()));
    scene.render(&painter, bounds, QRectF(QPointF(0, 0), bounds.size()));
    paintMoments(painter, bounds, style, *chart, timeline, run);
}

// A dashed line across the plot at each moment of this run, labelled at its top; labels that
// would collide step down a line.
void HoleAnatomyFigure::paintMoments(QPainter &painter, const QRectF &bounds, const FigureStyle &style, QChart &chart,
                                     const TimelineChart &timeline, AnatomyMoment::Run run) const
{
    const QRectF plot = chart.plotArea().translated(bounds.topLeft());
    const QFont font = style.font(0.9);
    const QFontMetricsF metrics(font);
    painter.save();
    painter.setFont(font);
    painter.setClipRect(bounds);
    // The chart's own failure label stays readable.
    std::vector<QRectF> placed;
    if (const std::optional<QRectF> failure = timeline.failureLabelRect())
        placed.push_back(failure->translated(bounds.topLeft()));
    for (const AnatomyMoment &m : m_moments) {
        if (m.run != AnatomyMoment::Run::Both && m.run != run)
            continue;
        const double axisX = m.step / timeline.dataX(1.0);
        const QPointF at = chart.mapToPosition(QPointF(axisX, 0), timeline.memorySeries()) + bounds.topLeft();
        if (at.x() < plot.left() - 0.5 || at.x() > plot.right() + 0.5)
            continue;
        QPen pen(style.divergence(), style.lineWidth, Qt::DashLine);
        painter.setPen(pen);
        painter.drawLine(QPointF(at.x(), plot.top()), QPointF(at.x(), plot.bottom()));
        const double width = metrics.horizontalAdvance(m.label) + 4;
        QRectF label(at.x() + 2, plot.top() + 1, width, metrics.height());
        if (label.right() > plot.right())
            label.moveRight(at.x() - 2);
        for (int tries = 0; tries < 12 && std::any_of(placed.begin(), placed.end(), [&](const QRectF &r) { return r.intersects(label); }); ++tries)
            label.translate(0, metrics.height());
        placed.push_back(label);
        painter.fillRect(label, QColor(255, 255, 255, 210));
        painter.setPen(style.ink());
        painter.drawText(label, Qt::AlignCenter, m.label);
    }
    painter.restore();
}

// The moments, then both runs' samples.
QString HoleAnatomyFigure::figureCsv() const
{
    QString csv;
    QTextStream out(&csv);
    out << "moment,run,step\n";
    for (const AnatomyMoment &m : m_moments) {
        const char *run = m.run == AnatomyMoment::Run::Both ? "both" : m.run == AnatomyMoment::Run::Passing ? "passing" : "failing";
        QString label = m.label;
        label.replace(QLatin1Char('"'), QStringLiteral("\"\""));
        out << '"' << label << "\"," << run << ',' << m.step << '\n';
    }
    out << "\nrun,budget,step,clock,memory,depth\n";
    for (const auto &[name, plot] : {std::pair{"passing", m_passing}, std::pair{"failing", m_failing}}) {
        if (!plot || !plot->run)
            continue;
        for (const TimelineSample &s : plot->run->recording.samples)
            out << name << ',' << plot->run->request.config.budget << ',' << s.step << ',' << s.clock << ',' << s.memory
                << ',' << s.depth << '\n';
    }
    return csv;
}

QString HoleAnatomyFigure::figureTitle() const
{
    return m_title.isEmpty() ? QStringLiteral("Hole anatomy") : m_title;
}

} // namespace rematlens
