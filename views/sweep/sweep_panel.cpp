#include "views/sweep/sweep_panel.h"

#include "core/sim/policy.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QSpinBox>
#include <QThread>
#include <QVBoxLayout>

namespace rematlens {

SweepPanel::SweepPanel(QWidget *parent)
    : QWidget(parent)
    , m_policies(new QListWidget(this))
    , m_runtime(new QComboBox(this))
    , m_from(new QLineEdit(this))
    , m_to(new QLineEdit(this))
    , m_step(new QLineEdit(this))
    , m_overhead(new QLineEdit(this))
    , m_threads(new QSpinBox(this))
    , m_customPolicy(new QPushButton(tr("Custom &Policy…"), this))
    , m_sweep(new QPushButton(tr("&Sweep"), this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
{
    for (const Policy &policy : allPolicies()) {
        auto *item = new QListWidgetItem(QString::fromStdString(policy.name), m_policies);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Unchecked);
        item->setToolTip(QString::fromStdString(policy.summary)
                         + (policy.source.empty() ? QString() : QStringLiteral("\nSource: ") + QString::fromStdString(policy.source)));
    }
    m_policies->setToolTip(tr("Policies to sweep; each becomes a row of the strip"));
    m_customPolicy->setToolTip(tr("Write an eviction score of your own (a formula over what the runtime knows "
                                  "of a storage) and add it to the policies"));
    m_policies->setMinimumHeight(110);
    m_runtime->addItem(tr("eager (RuntimeV2EagerOptimized)"), QStringLiteral("eager"));
    m_runtime->addItem(tr("lazy (RuntimeV2Optimized)"), QStringLiteral("lazy"));
    m_runtime->addItem(tr("banishing (RuntimeV1)"), QStringLiteral("banishing"));
    auto *decimal = new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]*\\.?[0-9]*")), this);
    for (QLineEdit *edit : {m_from, m_to, m_step, m_overhead})
        edit->setValidator(decimal);
    m_from->setToolTip(tr("Lowest budget, as a fraction of the baseline memory"));
    m_to->setToolTip(tr("Highest budget, as a fraction of the baseline memory"));
    m_step->setToolTip(tr("Grid step; budgets are exact decimals from + k × step"));
    m_overhead->setToolTip(tr("A run is over the compute limit once its overhead exceeds this"));
    m_threads->setRange(0, 256);
    m_threads->setSpecialValueText(tr("all (%1)").arg(QThread::idealThreadCount()));
    m_threads->setToolTip(tr("Worker threads for the sweep"));
    m_sweep->setToolTip(tr("Replay every budget of the range for every checked policy (Ctrl+R)"));
    m_sweep->setDefault(true);
    m_cancel->setEnabled(false);

    auto *form = new QFormLayout;
    form->addRow(tr("Runtime"), m_runtime);
    form->addRow(tr("From"), m_from);
    form->addRow(tr("To"), m_to);
    form->addRow(tr("Step"), m_step);
    form->addRow(tr("Overhead limit"), m_overhead);
    form->addRow(tr("Threads"), m_threads);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_sweep);
    buttons->addWidget(m_cancel);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_policies);
    layout->addWidget(m_customPolicy);
    layout->addLayout(form);
    layout->addLayout(buttons);
    connect(m_sweep, &QPushButton::clicked, this, &SweepPanel::sweepRequested);
    connect(m_cancel, &QPushButton::clicked, this, &SweepPanel::cancelRequested);
    connect(m_customPolicy, &QPushButton::clicked, this, &SweepPanel::policyEditorRequested);
    for (QLineEdit *edit : {m_from, m_to, m_step, m_overhead})
        connect(edit, &QLineEdit::returnPressed, this, &SweepPanel::sweepRequested);
    setParameters(SweepParameters{});
}

SweepParameters SweepPanel::parameters() const
{
    SweepParameters p;
    p.policies.clear();
    for (int i = 0; i < m_policies->count(); ++i)
        if (m_policies->item(i)->checkState() == Qt::Checked)
            p.policies << m_policies->item(i)->text();
    p.runtime = m_runtime->currentData().toString();
    p.from = m_from->text();
    p.to = m_to->text();
    p.step = m_step->text();
    p.overheadLimit = m_overhead->text();
    p.threads = m_threads->value();
    return p;
}

void SweepPanel::setParameters(const SweepParameters &p)
{
    for (const QString &policy : p.policies) // user expressions and parametrized policies
        addPolicy(policy, true);
    for (int i = 0; i < m_policies->count(); ++i)
        m_policies->item(i)->setCheckState(p.policies.contains(m_policies->item(i)->text()) ? Qt::Checked : Qt::Unchecked);
    m_runtime->setCurrentIndex(std::max(0, m_runtime->findData(p.runtime)));
    m_from->setText(p.from);
    m_to->setText(p.to);
    m_step->setText(p.step);
    m_overhead->setText(p.overheadLimit);
    m_threads->setValue(p.threads);
}

void SweepPanel::addPolicy(const QString &spec, bool checked)
{
    const QList<QListWidgetItem *> existing = m_policies->findItems(spec, Qt::MatchExactly);
    QListWidgetItem *item = existing.isEmpty() ? new QListWidgetItem(spec, m_policies) : existing.front();
    if (existing.isEmpty()) {
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setToolTip(spec);
    }
    item->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
}

void SweepPanel::setRunning(bool running)
{
    m_cancel->setEnabled(running);
}

} // namespace rematlens
