#include "views/memory/memory_map_panel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

namespace rematlens {

MemoryMapPanel::MemoryMapPanel(QWidget *parent)
    : QWidget(parent), m_view(new MemoryMapView(this)), m_step(new QSpinBox(this)), m_default(new QToolButton(this)),
      m_label(new QLabel(tr("Step"), this))
{
    m_step->setObjectName(QStringLiteral("memoryMapStep"));
    m_step->setKeyboardTracking(false);
    m_step->setToolTip(tr("The model step whose allocator layout is shown (or click the timeline)"));
    m_default->setText(tr("Default step"));
    m_default->setToolTip(tr("The failing step of a failed run, else the step where reserved memory peaks"));
    auto *controls = new QHBoxLayout;
    controls->setContentsMargins(4, 2, 4, 2);
    controls->addWidget(m_label);
    controls->addWidget(m_step);
    controls->addWidget(m_default);
    controls->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(controls);
    layout->addWidget(m_view, 1);
    connect(m_step, &QSpinBox::valueChanged, this, [this](int step) { emit stepRequested(std::size_t(step)); });
    connect(m_default, &QToolButton::clicked, this, &MemoryMapPanel::defaultStepRequested);
    setStepsEnabled(false);
}

void MemoryMapPanel::setSteps(std::size_t count, std::size_t step)
{
    const QSignalBlocker quiet(m_step);
    m_step->setRange(0, int(std::max<std::size_t>(count, 1) - 1));
    m_step->setValue(int(step));
}

// Without a run under an allocator model there is no step: the box says so ("—") rather than
// keep the step of the last run that had one.
void MemoryMapPanel::setStepsEnabled(bool enabled)
{
    if (!enabled) {
        const QSignalBlocker quiet(m_step);
        m_step->setRange(0, 0);
        m_step->setSpecialValueText(QStringLiteral("—"));
    } else {
        m_step->setSpecialValueText(QString());
    }
    m_step->setEnabled(enabled);
    m_default->setEnabled(enabled);
}

} // namespace rematlens
