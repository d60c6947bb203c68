#include "views/timeline/timeline_figure.h"

#include "views/timeline/timeline_chart.h"

#include <QChart>
#include <QGraphicsScene>
#include <QPainter>
#include <QTextStream>

namespace rematlens {

TimelineFigure::TimelineFigure(TimelinePlot plot) : m_plot(std::make_shared<const TimelinePlot>(std::move(plot)))
{
}

TimelineFigure::TimelineFigure(std::shared_ptr<const TimelinePlot> plot)
    : m_plot(plot ? std::move(plot) : std::make_shared<const TimelinePlot>())
{
}

void TimelineFigure::paintFigure(QPainter &painter, const QRectF &bounds, const FigureStyle &style) const
{
    QGraphicsScene scene;
    auto *chart = new QChart; // the scene owns it
    scene.addItem(chart);
    chart->setGeometry(QRectF(QPointF(0, 0), bounds.size()));
    TimelineChart timeline(chart, style);
    timeline.setPlot(m_plot.get());
    timeline.setLegendStyle(bounds.width() < 400 ? TimelineChart::LegendStyle::Compact
                                                 : TimelineChart::LegendStyle::Rows);
    const double from = m_range ? m_range->first : 0.0;
    const double to = m_range ? m_range->second : m_plot->extent();
    // Charts lay themselves out from the event loop; a figure must not wait for one.
    timeline.settle();
    // Two columns per point: finer than the eye resolves on paper, yet few enough points that
    // the line keeps its shape.
    timeline.showRange(from, to, int(chart->plotArea().width() * 2));
    timeline.settle();
    scene.setSceneRect(QRectF(QPointF(0, 0), bounds.size()));
    scene.render(&painter, bounds, QRectF(QPointF(0, 0), bounds.size()));
}

// Every sample of the run (and of the comparison), not the decimated points.
QString TimelineFigure::figureCsv() const
{
    QString csv;
    QTextStream out(&csv);
    // Under an allocator model the samples also carry reserved and allocated bytes.
    const auto modelled = [](const InspectedRun &run) {
        return !run.recording.allocation.empty() && run.recording.allocation.size() == run.recording.samples.size();
    };
    const bool allocation = m_plot->run && modelled(*m_plot->run);
    out << "run,ratio,budget,step,clock,memory,locked_bytes,depth,pool_size"
        << (allocation ? ",reserved,allocated\n" : "\n");
    const auto write = [&](const InspectedRun &run) {
        const bool own = allocation && modelled(run);
        for (std::size_t i = 0; i < run.recording.samples.size(); ++i) {
            const TimelineSample &s = run.recording.samples[i];
            out << QString::fromStdString(run.request.config.policy.name) << ',' << run.request.ratio << ','
                << run.request.config.budget << ',' << s.step << ',' << s.clock << ',' << s.memory << ','
                << s.lockedBytes << ',' << s.depth << ',' << s.poolSize;
            if (own)
                out << ',' << run.recording.allocation[i].reserved << ',' << run.recording.allocation[i].allocated;
            else if (allocation)
                out << ",,";
            out << '\n';
        }
    };
    if (m_plot->run)
        write(*m_plot->run);
    if (m_plot->comparison)
        write(*m_plot->comparison);
    return csv;
}

QString TimelineFigure::figureTitle() const
{
    if (!m_plot->run)
        return QStringLiteral("Memory timeline");
    QString title = QStringLiteral("Memory timeline of %1").arg(m_plot->runLabel(*m_plot->run));
    if (m_plot->comparison)
        title += QStringLiteral(" over %1").arg(m_plot->runLabel(*m_plot->comparison));
    return title;
}

} // namespace rematlens
