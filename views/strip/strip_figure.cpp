#include "views/strip/strip_figure.h"

#include "views/tables/schedule_rows_model.h"

#include "views/strip/strip_legend.h"
#include "views/tables/exact_map_model.h"
#include "views/strip/strip_painter.h"
#include "views/tables/hole_list_model.h"
#include "views/tables/sweep_result_model.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace rematlens {

namespace {

QString csvField(const QString &text)
{
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')))
        return text;
    QString quoted = text;
    quoted.replace(QStringLiteral("\""), QStringLiteral("\"\""));
    return QStringLiteral("\"") + quoted + QStringLiteral("\"");
}

bool inHole(const HoleListModel *holes, std::size_t policy, std::size_t column)
{
    if (!holes || policy >= holes->reports().size())
        return false;
    for (const Hole &hole : holes->reports()[policy].holes)
        if (column >= hole.firstFail && column <= hole.lastFail)
            return true;
    return false;
}

} // namespace

StripFigure::StripFigure(std::vector<Panel> panels) : m_panels(std::move(panels))
{
}

bool StripFigure::hasRuns(const Panel &panel) const
{
    return panel.sweep && panel.sweep->gridSize() > 0 && panel.sweep->policyCount() > 0;
}

QString StripFigure::figureTitle() const
{
    if (m_panels.size() == 1 && !m_panels.front().title.isEmpty())
        return QStringLiteral("strip-") + m_panels.front().title;
    if (m_panels.size() <= 1)
        return QStringLiteral("strip");
    return QStringLiteral("strips");
}

int StripFigure::gridColumns(double width, const FigureStyle &style) const
{
    const int panels = static_cast<int>(std::max<std::size_t>(1, m_panels.size()));
    const double lineHeight = QFontMetricsF(style.font()).height();
    const int fit = std::clamp(static_cast<int>(width / (10 * lineHeight)), 1, 4);
    const int rows = (panels + std::min(panels, fit) - 1) / std::min(panels, fit);
    return (panels + rows - 1) / rows; // balanced: 5 panels make rows of 3 and 2, not 4 and 1
}

int StripFigure::gridRows(double width, const FigureStyle &style) const
{
    const int panels = static_cast<int>(std::max<std::size_t>(1, m_panels.size()));
    const int columns = gridColumns(width, style);
    return (panels + columns - 1) / columns;
}

// Every outcome a row can show, whether a run has it yet or not, so the legend keeps its place
// while a sweep fills the strip: "not run" from the start until the last cell is in, a timeout
// (a wall limit's, or a map's) only once one is there.
std::vector<Outcome> StripFigure::outcomesShown() const
{
    bool timeout = false;
    bool notRun = false;
    bool impossible = false;
    for (const Panel &panel : m_panels) {
        if (!hasRuns(panel))
            continue;
        for (std::size_t p = 0; p < panel.sweep->policyCount(); ++p) {
            for (std::size_t c = 0; c < panel.sweep->gridSize(); ++c) {
                const std::optional<RunResult> &r = panel.sweep->result(p, c);
                timeout = timeout || (r && r->outcome == Outcome::Timeout);
                notRun = notRun || !r || r->outcome == Outcome::Cancelled;
            }
            if (const MappedRow *row = panel.maps ? panel.maps->row(panel.sweep->request(p, 0)) : nullptr)
                for (const MapStretch &stretch : row->summary.stretches) {
                    timeout = timeout || (!stretch.unmapped && stretch.outcome == Outcome::Timeout);
                    impossible = impossible || (!stretch.unmapped && stretch.outcome == Outcome::Impossible);
                }
        }
    }
    std::vector<Outcome> shown{Outcome::Pass, Outcome::OutOfMemory, Outcome::Thrash};
    if (impossible)
        shown.push_back(Outcome::Impossible);
    if (timeout)
        shown.push_back(Outcome::Timeout);
    if (notRun)
        shown.push_back(Outcome::Cancelled);
    return shown;
}

// Every policy of the figure, in row order: its colour is its index here.
QStringList StripFigure::policyNames() const
{
    QStringList names;
    for (const Panel &panel : m_panels)
        if (hasRuns(panel))
            for (std::size_t p = 0; p < panel.sweep->policyCount(); ++p)
                if (!names.contains(panel.sweep->policyName(p)))
                    names.append(panel.sweep->policyName(p));
    return names;
}

// Every policy's overhead line, also before its first pass draws the curve: the legend does not
// grow while a sweep runs.
StripLegend StripFigure::legend(const FigureStyle &style) const
{
    std::vector<StripLegend::PolicyLine> lines;
    const QStringList names = policyNames();
    for (int i = 0; i < names.size(); ++i)
        lines.push_back({names[i], i});
    return StripLegend(style, outcomesShown(), lines, hasUnmapped(), scheduleSwatches());
}

// The states the schedule rows of any panel can take, once each, answered or not yet: the
// legend stays as it is while the answers arrive.
std::vector<StripLegend::Swatch> StripFigure::scheduleSwatches() const
{
    using State = ScheduleRowsModel::State;
    std::vector<State> states;
    const auto add = [&states](std::initializer_list<State> more) {
        for (State state : more)
            if (std::find(states.begin(), states.end(), state) == states.end())
                states.push_back(state);
    };
    for (const Panel &panel : m_panels) {
        if (!hasRuns(panel) || !panel.schedules)
            continue;
        for (ScheduleRowsModel::Row row : panel.schedules->rows()) {
            if (row == ScheduleRowsModel::Row::Checkpointing)
                add({State::Pass, State::Fail});
            else
                add({State::Optimal, State::Feasible, State::Infeasible, State::Unknown, State::Declined});
        }
    }
    if (!states.empty())
        add({State::Pending});
    std::vector<StripLegend::Swatch> swatches;
    for (ScheduleRowsModel::State state : states)
        swatches.push_back({ScheduleRowsModel::stateColour(state), ScheduleRowsModel::stateLabel(state)});
    return swatches;
}

// Budgets a row's exact map has not reached (a map being made, or one that stopped) get a
// legend entry of their own; complete maps have none to explain.
bool StripFigure::hasUnmapped() const
{
    for (const Panel &panel : m_panels)
        if (hasRuns(panel) && panel.maps)
            for (std::size_t p = 0; p < panel.sweep->policyCount(); ++p)
                if (const MappedRow *row = panel.maps->row(panel.sweep->request(p, 0)); row && !row->summary.unmapped.empty())
                    return true;
    return false;
}

double StripFigure::sharedOverheadTop(const FigureStyle &style) const
{
    double top = 0;
    for (const Panel &panel : m_panels)
        if (hasRuns(panel))
            top = std::max(top, StripPainter(*panel.sweep, panel.holes, style, panel.maps, panel.schedules).overheadTop());
    return top;
}

StripFigure::Layout StripFigure::layout(const QRectF &bounds, const FigureStyle &style) const
{
    Layout l;
    const double lineHeight = QFontMetricsF(style.font()).height();
    const StripLegend legend = this->legend(style);
    const double margin = 0.3 * lineHeight;
    const QRectF inner = bounds.adjusted(margin, margin, -margin, -margin);
    const double legendHeight = legend.height(inner.width());
    l.legend = QRectF(inner.left(), inner.bottom() - legendHeight, inner.width(), legendHeight);
    const bool several = m_panels.size() > 1;
    const double titleHeight = several ? 1.2 * lineHeight : 0;
    l.xTitle = QRectF(inner.left(), l.legend.top() - titleHeight - 0.3 * lineHeight, inner.width(), titleHeight);
    const QRectF grid(inner.left(), inner.top(), inner.width(), l.xTitle.top() - inner.top());
    const int columns = gridColumns(inner.width(), style);
    const int rows = gridRows(inner.width(), style);
    l.columns = columns;
    // Equal cell widths: the left column also holds the labels.
    double labels = 0;
    for (const Panel &panel : m_panels)
        if (hasRuns(panel))
            labels = std::max(labels, StripPainter(*panel.sweep, panel.holes, style, panel.maps, panel.schedules).leftLabelWidth());
    const double otherLabels = 0.5 * lineHeight;
    const double panelWidth = (grid.width() - labels + otherLabels) / columns;
    const double gap = 0.4 * lineHeight;
    const double panelHeight = (grid.height() - (rows - 1) * gap) / rows;
    for (std::size_t i = 0; i < m_panels.size(); ++i) {
        const int row = static_cast<int>(i) / columns;
        const int column = static_cast<int>(i) % columns;
        const double left = column == 0 ? grid.left() : grid.left() + labels - otherLabels + column * panelWidth;
        const double width = column == 0 ? panelWidth + labels - otherLabels : panelWidth;
        l.panels.emplace_back(left, grid.top() + row * (panelHeight + gap), width, panelHeight);
    }
    return l;
}

StripGeometry StripFigure::panelGeometry(const QRectF &bounds, const FigureStyle &style, std::size_t index) const
{
    if (index >= m_panels.size() || !hasRuns(m_panels[index]))
        return {};
    const Layout l = layout(bounds, style);
    const Panel &panel = m_panels[index];
    return StripPainter(*panel.sweep, panel.holes, style, panel.maps, panel.schedules).layout(l.panels[index], partsFor(index, l.columns));
}

StripPainter::Parts StripFigure::partsFor(std::size_t index, int columns) const
{
    StripPainter::Parts parts;
    const bool several = m_panels.size() > 1;
    parts.title = several ? m_panels[index].title : QString();
    parts.bytesAxis = !several;
    parts.leftLabels = static_cast<int>(index) % columns == 0;
    parts.xAxisTitle = !several;
    parts.viewFrom = m_panels[index].viewFrom;
    parts.viewTo = m_panels[index].viewTo;
    return parts;
}

void StripFigure::paintFigure(QPainter &painter, const QRectF &bounds, const FigureStyle &style) const
{
    painter.save();
    painter.fillRect(bounds, Qt::white);
    painter.setFont(style.font());
    const Layout l = layout(bounds, style);
    const double top = sharedOverheadTop(style);
    const QStringList names = policyNames();
    for (std::size_t i = 0; i < m_panels.size(); ++i) {
        const Panel &panel = m_panels[i];
        if (!hasRuns(panel)) {
            painter.setPen(style.ink());
            painter.drawText(l.panels[i], Qt::AlignCenter, panel.title + QStringLiteral(": no runs"));
            continue;
        }
        StripPainter::Parts parts = partsFor(i, l.columns);
        parts.overheadTop = top;
        parts.policyColours = names;
        StripPainter(*panel.sweep, panel.holes, style, panel.maps, panel.schedules).paint(painter, l.panels[i], parts);
    }
    if (m_panels.size() > 1) {
        painter.setPen(style.ink());
        painter.drawText(l.xTitle, Qt::AlignHCenter | Qt::AlignVCenter, sharedXTitle(l.xTitle.width(), style));
    }
    legend(style).paint(painter, l.legend);
    painter.restore();
}

// The longest wording of the budget axis that fits the figure's width.
QString StripFigure::sharedXTitle(double width, const FigureStyle &style) const
{
    const QFontMetricsF metrics(style.font());
    const QString titles[] = {QStringLiteral("memory budget (fraction of each model's baseline peak memory)"),
                              QStringLiteral("budget (fraction of baseline peak memory)"),
                              QStringLiteral("budget / baseline peak")};
    for (const QString &title : titles)
        if (metrics.horizontalAdvance(title) <= width)
            return title;
    return titles[2];
}

QString StripFigure::figureCsv() const
{
    QString csv = QStringLiteral("trace,policy,ratio,budget_bytes,outcome,overhead,in_hole\n");
    for (const Panel &panel : m_panels) {
        if (!hasRuns(panel))
            continue;
        const SweepResultModel &sweep = *panel.sweep;
        const double compute = static_cast<double>(sweep.baseline().compute);
        for (std::size_t p = 0; p < sweep.policyCount(); ++p)
            for (std::size_t c = 0; c < sweep.gridSize(); ++c) {
                const std::optional<RunResult> &r = sweep.result(p, c);
                const bool passed = r && r->outcome == Outcome::Pass && compute > 0;
                csv += csvField(panel.title) + QLatin1Char(',') + csvField(sweep.policyName(p)) + QLatin1Char(',') +
                       QString::fromStdString(sweep.grid()[c].text) + QLatin1Char(',') +
                       QString::number(sweep.request(p, c).config.budget) + QLatin1Char(',') +
                       QString::fromLatin1(outcomeName(r ? r->outcome : Outcome::Cancelled)) + QLatin1Char(',') +
                       (passed ? QString::number(static_cast<double>(r->clock) / compute, 'g', 10) : QString()) +
                       QLatin1Char(',') + (inHole(panel.holes, p, c) ? QStringLiteral("1") : QStringLiteral("0")) +
                       QLatin1Char('\n');
            }
        csv += scheduleCsv(panel);
    }
    return csv;
}

// The schedule rows' cells, in the same columns: their state as outcome, the schedule's overhead.
QString StripFigure::scheduleCsv(const Panel &panel)
{
    QString csv;
    const ScheduleRowsModel *rows = panel.schedules;
    if (!rows || rows->columnCount() != panel.sweep->gridSize())
        return csv;
    for (std::size_t row = 0; row < rows->rowCount(); ++row)
        for (std::size_t c = 0; c < rows->columnCount(); ++c) {
            const bool checkpointing = rows->rows()[row] == ScheduleRowsModel::Row::Checkpointing;
            const ScheduleRowsModel::State state = rows->state(row, c);
            QString overhead;
            if (checkpointing && state == ScheduleRowsModel::State::Pass)
                overhead = QString::number(rows->checkpoint(c)->overhead, 'g', 10);
            if (!checkpointing && rows->optimal(c) &&
                (state == ScheduleRowsModel::State::Optimal || state == ScheduleRowsModel::State::Feasible))
                overhead = QString::number(rows->optimal(c)->overhead, 'g', 10);
            csv += csvField(panel.title) + QLatin1Char(',') + ScheduleRowsModel::rowName(rows->rows()[row]) +
                   QLatin1Char(',') + QString::fromStdString(panel.sweep->grid()[c].text) + QLatin1Char(',') +
                   QString::number(panel.sweep->request(0, c).config.budget) + QLatin1Char(',') +
                   ScheduleRowsModel::stateName(state) + QLatin1Char(',') + overhead + QStringLiteral(",0\n");
        }
    return csv;
}

} // namespace rematlens
