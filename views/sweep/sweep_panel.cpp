#include "views/sweep/sweep_panel.h"

#include "core/sim/policy.h"

#include <QCheckBox>
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
    : QWidget(parent), m_policies(new QListWidget(this)), m_runtime(new QComboBox(this)), m_from(new QLineEdit(this)),
      m_to(new QLineEdit(this)), m_step(new QLineEdit(this)), m_overhead(new QLineEdit(this)),
      m_threads(new QSpinBox(this)), m_customPolicy(new QPushButton(tr("Custom &Policy…"), this)),
      m_sweep(new QPushButton(tr("&Sweep"), this)), m_cancel(new QPushButton(tr("Cancel"), this)),
      m_sumModel(new QCheckBox(tr("sum"), this)), m_cachingModel(new QCheckBox(tr("caching"), this)),
      m_bestFitModel(new QCheckBox(tr("best-fit"), this)), m_eviction(new QComboBox(this)),
      m_checkpointing(new QCheckBox(tr("checkpointing"), this)), m_optimal(new QCheckBox(tr("optimal"), this)),
      m_timeLimit(new QLineEdit(this))
{
    for (const Policy &policy : allPolicies()) {
        auto *item = new QListWidgetItem(QString::fromStdString(policy.name), m_policies);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Unchecked);
        item->setToolTip(
            QString::fromStdString(policy.summary) +
            (policy.source.empty() ? QString() : QStringLiteral("\nSource: ") + QString::fromStdString(policy.source)));
        if (policy.name == "RandomStorage") // the atlas maps its seeds 0, 1 and 2
            for (int seed : {1, 2})
                addSeededRow(policy, seed);
    }
    m_policies->setToolTip(tr("Policies to sweep; each becomes a row of the strip"));
    m_customPolicy->setToolTip(tr("Write an eviction score of your own (a formula over what the runtime knows "
                                  "of a storage) and add it to the policies"));
    m_policies->setMinimumHeight(110);
    m_runtime->addItem(tr("eager (RuntimeV2EagerOptimized)"), QStringLiteral("eager"));
    m_runtime->addItem(tr("lazy (RuntimeV2Optimized)"), QStringLiteral("lazy"));
    m_runtime->addItem(tr("banishing (RuntimeV1)"), QStringLiteral("banishing"));
    // Narrow windows: the combo box shrinks (its popup still shows whole names).
    m_runtime->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_runtime->setMinimumContentsLength(12);
    auto *decimal = new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]*\\.?[0-9]*")), this);
    for (QLineEdit *edit : {m_from, m_to, m_step, m_overhead, m_timeLimit})
        edit->setValidator(decimal);
    m_from->setToolTip(tr("Lowest budget, as a fraction of the baseline memory"));
    m_to->setToolTip(tr("Highest budget, as a fraction of the baseline memory"));
    m_step->setToolTip(tr("Grid step; budgets are exact decimals from + k × step"));
    m_overhead->setToolTip(tr("A run is over the compute limit once its overhead exceeds this"));
    m_threads->setRange(0, 256);
    m_threads->setSpecialValueText(tr("all (%1)").arg(QThread::idealThreadCount()));
    m_threads->setToolTip(tr("Worker threads for the sweep"));
    m_runtime->setToolTip(tr("simrd's runtime to replay with: eviction on release (eager), lazy eviction, or the "
                             "banishing runtime of the DTR paper"));
    m_cancel->setToolTip(tr("Stop the sweep; finished runs are kept (Ctrl+.)"));
    m_sweep->setToolTip(tr("Replay every budget of the range for every checked policy (Ctrl+R)"));
    m_sweep->setDefault(true);
    m_cancel->setEnabled(false);

    auto *form = new QFormLayout;
    form->addRow(tr("Runtime"), m_runtime);
    form->addRow(tr("Allocator"), createAllocatorChoice());
    form->addRow(tr("Eviction"), m_eviction);
    form->addRow(tr("Schedules"), createScheduleChoice());
    form->addRow(tr("Time limit (s)"), m_timeLimit);
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

// Sum, caching and best-fit as check boxes (a strip row per policy and model) on one line.
QWidget *SweepPanel::createAllocatorChoice()
{
    m_sumModel->setToolTip(tr("The byte sum of live tensors, as simrd counts a budget: one row per policy"));
    m_cachingModel->setToolTip(tr("PyTorch's CUDA caching allocator (rounding, 2 MiB and 20 MiB segments, splitting, "
                                  "release and retry): one more row per policy, labelled \"policy \u00b7 caching\""));
    m_bestFitModel->setToolTip(tr("One arena of exactly the budget, best fit by size then address, coalescing: one "
                                  "more row per policy, labelled \"policy \u00b7 best-fit\""));
    m_eviction->addItem(tr("on failure"), QStringLiteral("on-failure"));
    m_eviction->addItem(tr("after each operator"), QStringLiteral("after-op"));
    m_eviction->setToolTip(tr("How eviction meets caching and best-fit: on failure (the budget is the device; a "
                              "failed allocation releases the cache, then evicts and retries) or after each operator "
                              "(DTR's prototype: evict while allocated bytes exceed the budget)"));
    m_eviction->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_eviction->setMinimumContentsLength(10);
    auto *models = new QWidget(this);
    auto *row = new QHBoxLayout(models);
    row->setContentsMargins(0, 0, 0, 0);
    m_sumModel->setProperty("model", QStringLiteral("sum"));
    m_cachingModel->setProperty("model", QStringLiteral("caching"));
    m_bestFitModel->setProperty("model", QStringLiteral("best-fit"));
    for (QCheckBox *box : {m_sumModel, m_cachingModel, m_bestFitModel}) {
        row->addWidget(box);
        connect(box, &QCheckBox::toggled, this, &SweepPanel::updateEvictionChoice);
    }
    row->addStretch();
    return models;
}

// Rows of static schedules under the policies, computed per grid budget off the GUI thread.
QWidget *SweepPanel::createScheduleChoice()
{
    m_checkpointing->setToolTip(tr("Add a row \"checkpointing\": whether static checkpointing (Chen et al. 2016, the "
                                   "better of the \u221aN and the greedy plan) fits each budget, its overhead in the "
                                   "tooltip"));
    m_optimal->setToolTip(tr("Add a row \"optimal\": Checkmate's optimal schedule per budget, solved with CBC "
                             "(optimal, feasible when the time limit stopped it, infeasible, or unknown); slow, so "
                             "off by default"));
    m_timeLimit->setToolTip(tr("Seconds the solver may spend on each budget of the \"optimal\" row"));
    auto *choice = new QWidget(this);
    auto *row = new QHBoxLayout(choice);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_checkpointing);
    row->addWidget(m_optimal);
    row->addStretch();
    connect(m_optimal, &QCheckBox::toggled, m_timeLimit, &QLineEdit::setEnabled);
    return choice;
}

// The coupling only matters to the models other than the sum.
void SweepPanel::updateEvictionChoice()
{
    m_eviction->setEnabled(m_cachingModel->isChecked() || m_bestFitModel->isChecked());
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
    p.allocators.clear();
    for (QCheckBox *box : {m_sumModel, m_cachingModel, m_bestFitModel})
        if (box->isChecked())
            p.allocators << box->property("model").toString();
    p.eviction = m_eviction->currentData().toString();
    p.checkpointing = m_checkpointing->isChecked();
    p.optimal = m_optimal->isChecked();
    p.timeLimit = m_timeLimit->text();
    return p;
}

void SweepPanel::setParameters(const SweepParameters &p)
{
    for (const QString &policy : p.policies) // user expressions and parametrized policies
        addPolicy(policy, true);
    for (int i = 0; i < m_policies->count(); ++i)
        m_policies->item(i)->setCheckState(p.policies.contains(m_policies->item(i)->text()) ? Qt::Checked
                                                                                            : Qt::Unchecked);
    m_runtime->setCurrentIndex(std::max(0, m_runtime->findData(p.runtime)));
    m_from->setText(p.from);
    m_to->setText(p.to);
    m_step->setText(p.step);
    m_overhead->setText(p.overheadLimit);
    m_threads->setValue(p.threads);
    for (QCheckBox *box : {m_sumModel, m_cachingModel, m_bestFitModel})
        box->setChecked(p.allocators.contains(box->property("model").toString()));
    m_eviction->setCurrentIndex(std::max(0, m_eviction->findData(p.eviction)));
    updateEvictionChoice();
    m_checkpointing->setChecked(p.checkpointing);
    m_optimal->setChecked(p.optimal);
    m_timeLimit->setText(p.timeLimit);
    m_timeLimit->setEnabled(p.optimal);
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

// Another draw of a random policy's choices, as a row of its own.
void SweepPanel::addSeededRow(const Policy &policy, int seed)
{
    auto *item = new QListWidgetItem(QStringLiteral("%1:seed=%2").arg(QString::fromStdString(policy.name)).arg(seed),
                                     m_policies);
    item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
    item->setCheckState(Qt::Unchecked);
    item->setToolTip(tr("%1 with seed %2 (simrd's --seed %2): another draw of its random choices")
                         .arg(QString::fromStdString(policy.name))
                         .arg(seed));
}

void SweepPanel::setRunning(bool running)
{
    m_cancel->setEnabled(running);
}

} // namespace rematlens
