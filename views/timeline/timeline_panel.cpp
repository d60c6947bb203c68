#include "views/timeline/timeline_panel.h"

#include "views/common/number_format.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

namespace rematlens {

TimelinePanel::TimelinePanel(QWidget *parent)
    : QWidget(parent)
    , m_view(new TimelineView(this))
    , m_axis(new QComboBox(this))
    , m_overlay(new QComboBox(this))
    , m_pin(new QToolButton(this))
    , m_reset(new QToolButton(this))
    , m_status(new QLabel(this))
{
    m_axis->addItem(tr("Model step"), int(TimelineAxis::Step));
    m_axis->addItem(tr("Clock"), int(TimelineAxis::Clock));
    m_axis->setToolTip(tr("Plot against the model step (budgets align step by step) or the simulated clock"));
    m_overlay->addItem(tr("No overlay"), int(Overlay::None));
    m_overlay->addItem(tr("Overlay the budget below"), int(Overlay::BudgetBelow));
    m_overlay->addItem(tr("Overlay the budget above"), int(Overlay::BudgetAbove));
    m_overlay->addItem(tr("Overlay the pinned run"), int(Overlay::Pinned));
    m_overlay->setToolTip(tr("Draw a second budget of the same policy over this one and mark where their "
                             "evictions and rematerializations first differ"));
    m_pin->setText(tr("Pin"));
    m_pin->setToolTip(tr("Pin the run shown, to overlay it on the runs you select next (Ctrl+Shift+P)"));
    m_pin->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    m_reset->setText(tr("Reset zoom"));
    m_reset->setToolTip(tr("Show the whole run (0 or double click in the chart)"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("x:"), this));
    controls->addWidget(m_axis);
    controls->addWidget(m_overlay);
    controls->addWidget(m_pin);
    controls->addWidget(m_reset);
    controls->addWidget(m_status, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(controls);
    layout->addWidget(m_view, 1);

    connect(m_axis, &QComboBox::currentIndexChanged, this, [this] {
        const auto axis = TimelineAxis(m_axis->currentData().toInt());
        m_view->setAxis(axis);
        emit axisChanged(axis);
    });
    connect(m_overlay, &QComboBox::currentIndexChanged, this, [this] { emit overlayChanged(overlay()); });
    connect(m_pin, &QToolButton::clicked, this, &TimelinePanel::pinRequested);
    connect(m_reset, &QToolButton::clicked, m_view, &TimelineView::resetZoom);
}

TimelinePanel::Overlay TimelinePanel::overlay() const
{
    return Overlay(m_overlay->currentData().toInt());
}

void TimelinePanel::setOverlay(Overlay overlay)
{
    m_overlay->setCurrentIndex(m_overlay->findData(int(overlay)));
}

void TimelinePanel::setAxis(TimelineAxis axis)
{
    m_axis->setCurrentIndex(m_axis->findData(int(axis)));
}

void TimelinePanel::setBusy(bool busy)
{
    m_busy = busy;
    updateStatus();
}

void TimelinePanel::showRuns(std::shared_ptr<const Program> program, std::shared_ptr<const InspectedRun> run,
                             std::shared_ptr<const InspectedRun> comparison)
{
    m_busy = false;
    m_view->setRuns(std::move(program), std::move(run), std::move(comparison));
    updateStatus();
}

QString TimelinePanel::statusText() const
{
    const TimelinePlot &plot = m_view->plot();
    if (m_busy)
        return tr("Replaying the selected run…");
    if (plot.empty())
        return tr("Select a run in the strip to see its memory timeline");
    QString text = plot.runLabel(*plot.run) + QStringLiteral(": ")
                   + QString::fromUtf8(outcomeName(plot.run->result.outcome).data());
    if (!plot.comparison)
        return text;
    text += tr(" over %1 (%2)").arg(plot.runLabel(*plot.comparison),
                                    QString::fromUtf8(outcomeName(plot.comparison->result.outcome).data()));
    if (!plot.divergence)
        return text + tr("; the same evictions and rematerializations throughout");
    const auto &d = *plot.divergence;
    const auto &events = d.a ? plot.run->recording.events : plot.comparison->recording.events;
    const std::uint32_t step = events[d.a ? *d.a : *d.b].step;
    return text + tr("; histories diverge at event %1 (step %2)").arg(d.index).arg(numberLocale().toString(step));
}

void TimelinePanel::updateStatus()
{
    m_status->setText(statusText());
}

} // namespace rematlens
