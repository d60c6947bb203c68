#pragma once

#include "views/sweep/sweep_parameters.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSpinBox;

namespace rematlens {

struct Policy;

// The sweep controls: policies (several at once), allocator models (a row each per policy),
// runtime, budget range and step, overhead limit, threads, and the Sweep and Cancel buttons.
class SweepPanel : public QWidget {
    Q_OBJECT

public:
    explicit SweepPanel(QWidget *parent = nullptr);

    SweepParameters parameters() const;
    void setParameters(const SweepParameters &parameters);
    void setRunning(bool running);
    // Adds a policy spec (a score expression, a parametrized built-in) to the list, checked or not;
    // an existing entry only gets its check state set.
    void addPolicy(const QString &spec, bool checked);

signals:
    void sweepRequested();
    void cancelRequested();
    void policyEditorRequested(); // the user wants to write a score expression

private:
    QWidget *createAllocatorChoice();
    QWidget *createScheduleChoice();
    void updateEvictionChoice();
    void addSeededRow(const Policy &policy, int seed);

    QListWidget *m_policies;
    QComboBox *m_runtime;
    QLineEdit *m_from;
    QLineEdit *m_to;
    QLineEdit *m_step;
    QLineEdit *m_overhead;
    QSpinBox *m_threads;
    QPushButton *m_customPolicy;
    QPushButton *m_sweep;
    QPushButton *m_cancel;
    QCheckBox *m_sumModel;
    QCheckBox *m_cachingModel;
    QCheckBox *m_bestFitModel;
    QComboBox *m_eviction;
    QCheckBox *m_checkpointing;
    QCheckBox *m_optimal;
    QLineEdit *m_timeLimit;
};

} // namespace rematlens
