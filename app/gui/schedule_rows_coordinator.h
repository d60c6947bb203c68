#pragma once

#include "schedule_controller.h"

#include <QObject>

namespace rematlens {

class JobStatusBar;
class ScheduleRowsModel;
class SweepResultModel;
struct SweepParameters;

// The strip's rows of static schedules (checkpointing, the optimum) for the sweep's budgets,
// answered off the GUI thread once a sweep has planned its grid.
class ScheduleRowsCoordinator : public QObject {
    Q_OBJECT

public:
    ScheduleRowsCoordinator(ScheduleRowsModel &rows, const SweepResultModel &sweep, JobStatusBar &status,
                            QObject *parent);

    void start(std::shared_ptr<const Program> program, const QString &traceHash, const SweepParameters &p);
    void cancel();
    bool running() const { return m_controller.running(); }

signals:
    void runningChanged();
    void finished(bool cancelled);
    // A line for the status bar (answered, cancelled, or why the optimum is out of reach).
    void message(const QString &text, int milliseconds);

private:
    ScheduleRowsModel &m_rows;
    const SweepResultModel &m_sweep;
    JobStatusBar &m_status;
    ScheduleController m_controller;
};

} // namespace rematlens
