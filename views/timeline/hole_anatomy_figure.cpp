#include "views/timeline/hole_anatomy_figure.h"

#include "views/timeline/anatomy_chart.h"

#include <QFontMetricsF>
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

// The passing run above, the failing run below, on one step axis: plots equally high, one above
// the other, the legend over the first, the axis's labels and title under the second.
void HoleAnatomyFigure::paintFigure(QPainter &painter, const QRectF &bounds, const FigureStyle &style) const
{
    if (empty()) {
        painter.setPen(style.ink());
        painter.setFont(style.font());
        painter.drawText(bounds, Qt::AlignCenter, QStringLiteral("Select a hole to draw its anatomy"));
        return;
    }
    const QFont bold = style.boldFont();
    const qreal line = QFontMetricsF(bold).height() * 1.2; // a heading's
    const qreal axisTitle = QFontMetricsF(style.font()).height() * 1.2;
    AnatomyChart passing(*m_passing, style, AnatomyChart::Place::Upper);
    AnatomyChart failing(*m_failing, style, AnatomyChart::Place::Lower);
    const double extent = std::max(m_passing->extent(), m_failing->extent());
    stack(passing, failing, bounds.width(), bounds.height() - 2 * line - axisTitle, extent);

    const QPointF upper(bounds.left(), bounds.top() + line);
    const QPointF lower(bounds.left(), upper.y() + passing.height() + line);
    passing.render(painter, upper);
    failing.render(painter, lower);
    paintMoments(painter, upper, style, passing, AnatomyMoment::Run::Passing);
    paintMoments(painter, lower, style, failing, AnatomyMoment::Run::Failing);
    painter.save();
    painter.setPen(style.ink());
    painter.setFont(bold);
    // Which run each chart is, on a line of its own above it: nothing of the chart covers it.
    for (const auto &[top, run] : {std::pair{upper, AnatomyMoment::Run::Passing}, std::pair{lower, AnatomyMoment::Run::Failing}})
        painter.drawText(QRectF(bounds.left() + 2, top.y() - line, bounds.width() - 4, line),
                         Qt::AlignLeft | Qt::AlignVCenter, heading(run));
    // The step axis's title, under the lower plot.
    painter.setFont(style.font());
    const QRectF plot = failing.plotArea().translated(lower);
    painter.drawText(QRectF(plot.left(), lower.y() + failing.height(), plot.width(), axisTitle), Qt::AlignCenter,
                     QStringLiteral("model step"));
    painter.restore();
}

// Plots of one height at one left and right: a first layout tells how much room each chart
// takes beside and around its plot; the charts are laid out again around plots of one size
// (twice, as the axes' labels may change with the height).
void HoleAnatomyFigure::stack(AnatomyChart &upper, AnatomyChart &lower, qreal width, qreal height, double extent)
{
    upper.layOut(width, height / 2, 0, 0, extent);
    lower.layOut(width, height / 2, 0, 0, extent);
    for (int pass = 0; pass < 2; ++pass) {
        const qreal plot = std::max<qreal>((height - upper.outside() - lower.outside()) / 2, 1);
        const qreal left = std::max(upper.axesLeft(), lower.axesLeft());
        const qreal right = std::max(upper.axesRight(), lower.axesRight());
        const qreal upperHeight = plot + upper.outside();
        const qreal upperLeft = left - upper.axesLeft();
        const qreal upperRight = right - upper.axesRight();
        lower.layOut(width, height - upperHeight, left - lower.axesLeft(), right - lower.axesRight(), extent);
        upper.layOut(width, upperHeight, upperLeft, upperRight, extent);
    }
}

QString HoleAnatomyFigure::heading(AnatomyMoment::Run run) const
{
    QLocale c = QLocale::c();
    c.setNumberOptions(QLocale::DefaultNumberOptions);
    const bool passes = run == AnatomyMoment::Run::Passing;
    const TimelinePlot &plot = passes ? *m_passing : *m_failing;
    return (passes ? QStringLiteral("Passes at %1 B") : QStringLiteral("Fails at %1 B"))
        .arg(c.toString(qlonglong(plot.run->request.config.budget)));
}

// A dashed line across the plot at each moment of this run, labelled at its top; labels that
// would collide step down a line.
void HoleAnatomyFigure::paintMoments(QPainter &painter, const QPointF &origin, const FigureStyle &style,
                                     const AnatomyChart &chart, AnatomyMoment::Run run) const
{
    const QRectF plot = chart.plotArea().translated(origin);
    const QFont font = style.font(0.9);
    const QFontMetricsF metrics(font);
    painter.save();
    painter.setFont(font);
    // The chart's own failure label stays readable.
    std::vector<QRectF> placed;
    if (const std::optional<QRectF> failure = chart.failureLabelRect())
        placed.push_back(failure->translated(origin));
    for (const AnatomyMoment &m : m_moments) {
        if (m.run != AnatomyMoment::Run::Both && m.run != run)
            continue;
        const QPointF at = chart.atStep(m.step) + origin;
        if (at.x() < plot.left() - 0.5 || at.x() > plot.right() + 0.5)
            continue;
        QPen pen(style.divergence(), style.lineWidth, Qt::DashLine);
        painter.setPen(pen);
        painter.drawLine(QPointF(at.x(), plot.top()), QPointF(at.x(), plot.bottom()));
        const QRectF label =
            labelSpot(QSizeF(metrics.horizontalAdvance(m.label) + 4, metrics.height()), at.x(), plot, placed);
        placed.push_back(label);
        painter.fillRect(label, QColor(255, 255, 255, 210));
        painter.setPen(style.ink());
        painter.drawText(label, Qt::AlignCenter, m.label);
    }
    painter.restore();
}

// Where a moment's label goes: beside its line at the plot's top, right of it where it fits,
// else left; a line lower while it would cover a label placed before, always inside the plot.
// With no free place left it takes the first.
QRectF HoleAnatomyFigure::labelSpot(const QSizeF &size, qreal x, const QRectF &plot, const std::vector<QRectF> &placed)
{
    std::vector<QRectF> spots;
    const qreal first = plot.top() + 1;
    for (qreal top = first; top == first || top + size.height() <= plot.bottom(); top += size.height())
        for (const qreal left : {x + 2, x - 2 - size.width()})
            if (left >= plot.left() && left + size.width() <= plot.right())
                spots.emplace_back(QPointF(left, top), size);
    for (const QRectF &spot : spots)
        if (std::none_of(placed.begin(), placed.end(), [&](const QRectF &r) { return r.intersects(spot); }))
            return spot;
    const QRectF right(QPointF(std::min(x + 2, plot.right() - size.width()), plot.top() + 1), size);
    return spots.empty() ? right : spots.front();
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
