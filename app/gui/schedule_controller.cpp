#include "schedule_controller.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <chrono>

namespace rematlens {

struct ScheduleController::Job {
    int id = 0;
    Request request;
    std::size_t total = 0;
    std::atomic<bool> cancel{false};
    std::size_t done = 0; // read and written on the GUI thread only
    QFuture<void> future;
    std::chrono::steady_clock::time_point started;
};

ScheduleController::ScheduleController(QObject *parent) : QObject(parent) {}

ScheduleController::~ScheduleController()
{
    for (const std::shared_ptr<Job> &job : m_jobs)
        job->cancel = true;
    for (const std::shared_ptr<Job> &job : m_jobs)
        job->future.waitForFinished(); // a solve in progress ends at its time limit
}

int ScheduleController::start(Request request)
{
    cancel();
    auto job = std::make_shared<Job>();
    job->id = ++m_job;
    job->total = request.budgets.size() * ((request.checkpointing ? 1 : 0) + (request.optimal ? 1 : 0));
    job->request = std::move(request);
    job->started = std::chrono::steady_clock::now();
    job->future = QtConcurrent::run([this, job] { work(job); });
    auto *watcher = new QFutureWatcher<void>(this);
    connect(watcher, &QFutureWatcher<void>::finished, this, [this, watcher, job] {
        watcher->deleteLater();
        jobFinished(job);
    });
    watcher->setFuture(job->future);
    m_jobs.push_back(job);
    m_running = true;
    emit progress(job->id, 0, job->total);
    return job->id;
}

void ScheduleController::cancel()
{
    for (const std::shared_ptr<Job> &job : m_jobs)
        job->cancel = true;
}

// The trace's graph and checkpoint plans are built once per program.
std::shared_ptr<const BudgetSchedules> ScheduleController::schedulesFor(const Job &job)
{
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        if (m_scheduledProgram == job.request.program && m_schedules)
            return m_schedules;
    }
    auto schedules = std::make_shared<const BudgetSchedules>(*job.request.program);
    const std::lock_guard<std::mutex> lock(m_mutex);
    m_scheduledProgram = job.request.program;
    m_schedules = schedules;
    return schedules;
}

// On a worker thread: every budget's checkpointing first (milliseconds each), then the optima.
void ScheduleController::work(const std::shared_ptr<Job> &job)
{
    const Request &r = job->request;
    const std::shared_ptr<const BudgetSchedules> schedules = schedulesFor(*job);
    for (std::size_t column = 0; r.checkpointing && column < r.budgets.size() && !job->cancel; ++column) {
        std::optional<CheckpointAnswer> answer;
        {
            const std::lock_guard<std::mutex> lock(m_mutex);
            const auto &known = m_known[r.traceHash].checkpoints;
            if (const auto found = known.find(r.budgets[column]); found != known.end())
                answer = found->second;
        }
        if (!answer) {
            answer = schedules->checkpoint(r.budgets[column]);
            const std::lock_guard<std::mutex> lock(m_mutex);
            m_known[r.traceHash].checkpoints[r.budgets[column]] = *answer;
        }
        deliver(job, column, answer, std::nullopt);
    }
    for (std::size_t column = 0; r.optimal && column < r.budgets.size() && !job->cancel; ++column) {
        const std::pair<Bytes, double> key{r.budgets[column], r.timeLimitSeconds};
        std::optional<OptimalAnswer> answer;
        {
            const std::lock_guard<std::mutex> lock(m_mutex);
            const auto &known = m_known[r.traceHash].optima;
            if (const auto found = known.find(key); found != known.end())
                answer = found->second;
        }
        if (!answer) {
            answer = schedules->optimal(r.budgets[column], r.timeLimitSeconds);
            const std::lock_guard<std::mutex> lock(m_mutex);
            m_known[r.traceHash].optima[key] = *answer;
        }
        deliver(job, column, std::nullopt, answer);
    }
}

void ScheduleController::deliver(const std::shared_ptr<Job> &job, std::size_t column,
                                 std::optional<CheckpointAnswer> checkpoint, std::optional<OptimalAnswer> optimal)
{
    QMetaObject::invokeMethod(
        this,
        [this, job, column, checkpoint, optimal] {
            if (job->id != m_job)
                return; // an outdated job's answer
            ++job->done;
            if (checkpoint)
                emit checkpointAnswered(job->id, column, *checkpoint);
            if (optimal)
                emit optimalAnswered(job->id, column, *optimal);
            emit progress(job->id, job->done, job->total);
        },
        Qt::QueuedConnection);
}

void ScheduleController::jobFinished(const std::shared_ptr<Job> &job)
{
    m_jobs.erase(std::remove(m_jobs.begin(), m_jobs.end(), job), m_jobs.end());
    if (job->id != m_job)
        return;
    m_running = false;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - job->started).count();
    emit finished(job->id, job->cancel.load(), seconds);
}

} // namespace rematlens
