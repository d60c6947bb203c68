#include "views/timeline/timeline_panel.h"

#include "views/common/elided_label.h"
#include "views/common/number_format.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace rematlens {

namespace {

// Stepping through budgets replays each in a few milliseconds from the prefetched runs: the
// message waits this long over a plot, so it shows only for replays one would wait for.
constexpr int kMessageDelayMs = 250;

} // namespace

TimelinePanel::TimelinePanel(QWidget *parent)
    : QWidget(parent), m_view(new TimelineView(this)), m_axis(new QComboBox(this)), m_overlay(new QComboBox(this)),
      m_pin(new QToolButton(this)), m_reset(new QToolButton(this)), m_status(new ElidedLabel(this)), m_message(new QLabel(m_view)),
      m_messageDelay(new QTimer(this))
{
    // Over the chart, which is blank or shows the last run while the next one replays.
    m_message->setObjectName(QStringLiteral("timelineMessage"));
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->setAutoFillBackground(true);
    m_message->setBackgroundRole(QPalette::ToolTipBase);
    m_message->setForegroundRole(QPalette::ToolTipText);
    m_message->setFrameShape(QFrame::StyledPanel);
    m_message->setMargin(10);
    m_message->setAttribute(Qt::WA_TransparentForMouseEvents);
    m_view->installEventFilter(this);
    m_messageDelay->setSingleShot(true);
    m_messageDelay->setInterval(kMessageDelayMs);
    connect(m_messageDelay, &QTimer::timeout, this, &TimelinePanel::updateMessage);

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
    // The line can be long (two runs and where they part): it takes the room there is, ends in
    // "…" when cut, and the tooltip has it whole, rather than widening the window.
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_status->setMinimumWidth(0);
    for (QComboBox *box : {m_axis, m_overlay}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(box == m_axis ? 8 : 14);
    }

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

    // The window builds the plot for the new axis off the GUI thread and hands it to showPlot.
    connect(m_axis, &QComboBox::currentIndexChanged, this,
            [this] { emit axisChanged(TimelineAxis(m_axis->currentData().toInt())); });
    connect(m_overlay, &QComboBox::currentIndexChanged, this, [this] { emit overlayChanged(overlay()); });
    connect(m_pin, &QToolButton::clicked, this, &TimelinePanel::pinRequested);
    connect(m_reset, &QToolButton::clicked, m_view, &TimelineView::resetZoom);
    updateStatus();
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
    m_replaying.clear();
    updateStatus();
}

void TimelinePanel::showReplaying(const RunRequest &run)
{
    m_busy = true;
    m_replaying = TimelinePlot::requestLabel(run);
    updateStatus();
}

TimelineAxis TimelinePanel::axis() const
{
    return TimelineAxis(m_axis->currentData().toInt());
}

void TimelinePanel::showPlot(std::shared_ptr<const TimelinePlot> plot)
{
    m_busy = false;
    m_view->setPlot(std::move(plot));
    updateStatus();
}

void TimelinePanel::clear()
{
    showPlot(nullptr);
}

QString TimelinePanel::statusText() const
{
    const TimelinePlot &plot = m_view->plot();
    if (m_busy)
        return m_replaying.isEmpty() ? tr("Replaying the selected run…") : tr("Replaying %1…").arg(m_replaying);
    if (plot.empty())
        return tr("Select a run in the strip to see its memory timeline");
    QString text = plot.runLabel(*plot.run) + QStringLiteral(": ") +
                   QString::fromUtf8(outcomeName(plot.run->result.outcome).data());
    if (!plot.comparison)
        return text;
    text += tr(" over %1 (%2)")
                .arg(plot.runLabel(*plot.comparison),
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
    m_status->setToolTip(m_status->text());
    // Over an empty chart at once; over the last run's plot once the replay takes a while.
    m_messageDelay->stop();
    if (m_busy && !m_view->plot().empty() && m_message->isHidden())
        m_messageDelay->start();
    else
        updateMessage();
}

QString TimelinePanel::messageText() const
{
    return m_message->isHidden() ? QString() : m_message->text();
}

void TimelinePanel::updateMessage()
{
    const bool shown = m_busy || m_view->plot().empty();
    m_message->setText(shown ? statusText() : QString());
    m_message->setVisible(shown);
    placeMessage();
}

void TimelinePanel::placeMessage()
{
    if (m_message->isHidden())
        return;
    const QRect area = m_view->rect();
    const int width = std::min(area.width() - 24, std::max(m_message->sizeHint().width(), area.width() / 2));
    QRect box(0, 0, std::max(width, 1), m_message->heightForWidth(std::max(width, 1)));
    box.moveCenter(area.center());
    m_message->setGeometry(box);
    m_message->raise();
}

bool TimelinePanel::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_view && event->type() == QEvent::Resize)
        placeMessage();
    return QWidget::eventFilter(watched, event);
}

} // namespace rematlens
