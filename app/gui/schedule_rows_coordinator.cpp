#include "schedule_rows_coordinator.h"

#include "job_status_bar.h"

#include "views/sweep/sweep_parameters.h"
#include "views/tables/schedule_rows_model.h"
#include "views/tables/sweep_result_model.h"

namespace rematlens {

ScheduleRowsCoordinator::ScheduleRowsCoordinator(ScheduleRowsModel &rows, const SweepResultModel &sweep,
                                                 JobStatusBar &status, QObject *parent)
    : QObject(parent), m_rows(rows), m_sweep(sweep), m_status(status)
{
    connect(&m_controller, &ScheduleController::checkpointAnswered, this,
            [this](int job, std::size_t column, const CheckpointAnswer &answer) {
                if (job == m_controller.currentJob())
                    m_rows.setCheckpoint(column, answer);
            });
    connect(&m_controller, &ScheduleController::optimalAnswered, this,
            [this](int job, std::size_t column, const OptimalAnswer &answer) {
                if (job != m_controller.currentJob())
                    return;
                m_rows.setOptimal(column, answer);
                if (!answer.declined.empty())
                    emit message(tr("The optimal row is out of reach: %1").arg(QString::fromStdString(answer.declined)),
                                 8000);
            });
    connect(&m_controller, &ScheduleController::progress, this, [this](int job, std::size_t done, std::size_t total) {
        if (job == m_controller.currentJob())
            m_status.showProgress(qint64(done), qint64(total), tr("%v of %m schedule answers"));
    });
    connect(&m_controller, &ScheduleController::finished, this, [this](int job, bool cancelled, double seconds) {
        if (job != m_controller.currentJob())
            return;
        emit runningChanged();
        emit message(cancelled ? tr("Schedule rows cancelled")
                               : tr("Schedule rows answered in %1 s").arg(seconds, 0, 'f', 2),
                     5000);
        emit finished(cancelled);
    });
}

void ScheduleRowsCoordinator::start(std::shared_ptr<const Program> program, const QString &traceHash,
                                    const SweepParameters &p)
{
    m_controller.cancel();
    m_rows.reset(p.checkpointing, p.optimal, m_sweep.gridSize());
    if (!p.checkpointing && !p.optimal)
        return;
    ScheduleController::Request request;
    request.program = std::move(program);
    request.traceHash = traceHash;
    for (std::size_t column = 0; column < m_sweep.gridSize(); ++column)
        request.budgets.push_back(m_sweep.request(0, column).config.budget);
    request.checkpointing = p.checkpointing;
    request.optimal = p.optimal;
    request.timeLimitSeconds = p.timeLimit.toDouble();
    m_controller.start(std::move(request));
    emit runningChanged();
}

void ScheduleRowsCoordinator::cancel()
{
    m_controller.cancel();
}

} // namespace rematlens
