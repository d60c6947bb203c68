#include "views/timeline/timeline_figure.h"

#include "views/timeline/timeline_chart.h"

#include <QChart>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QPainter>
#include <QTextStream>

namespace rematlens {

TimelineFigure::TimelineFigure(TimelinePlot plot) : m_plot(std::move(plot)) {}

void TimelineFigure::paintFigure(QPainter &painter, const QRectF &bounds, const FigureStyle &style) const
{
    QGraphicsScene scene;
    auto *chart = new QChart; // the scene owns it
    scene.addItem(chart);
    chart->setGeometry(QRectF(QPointF(0, 0), bounds.size()));
    TimelineChart timeline(chart, style);
    timeline.setPlot(&m_plot);
    timeline.setCompactLegend(bounds.width() < 400);
    const double from = m_range ? m_range->first : 0.0;
    const double to = m_range ? m_range->second : m_plot.extent();
    // Charts lay themselves out from the event loop; a figure must not wait for one.
    chart->layout()->activate();
    // Two columns per point: finer than the eye resolves on paper, yet few enough points that
    // the line keeps its shape.
    timeline.showRange(from, to, int(chart->plotArea().width() * 2));
    chart->layout()->activate();
    scene.setSceneRect(QRectF(QPointF(0, 0), bounds.size()));
    scene.render(&painter, bounds, QRectF(QPointF(0, 0), bounds.size()));
}

// Every sample of the run (and of the comparison), not the decimated points.
QString TimelineFigure::figureCsv() const
{
    QString csv;
    QTextStream out(&csv);
    out << "run,ratio,budget,step,clock,memory,locked_bytes,depth,pool_size\n";
    const auto write = [&out](const InspectedRun &run) {
        for (const TimelineSample &s : run.recording.samples)
            out << QString::fromStdString(run.request.config.policy.name) << ',' << run.request.ratio << ','
                << run.request.config.budget << ',' << s.step << ',' << s.clock << ',' << s.memory << ','
                << s.lockedBytes << ',' << s.depth << ',' << s.poolSize << '\n';
    };
    if (m_plot.run)
        write(*m_plot.run);
    if (m_plot.comparison)
        write(*m_plot.comparison);
    return csv;
}

QString TimelineFigure::figureTitle() const
{
    if (!m_plot.run)
        return QStringLiteral("Memory timeline");
    QString title = QStringLiteral("Memory timeline of %1").arg(m_plot.runLabel(*m_plot.run));
    if (m_plot.comparison)
        title += QStringLiteral(" over %1").arg(m_plot.runLabel(*m_plot.comparison));
    return title;
}

} // namespace rematlens
