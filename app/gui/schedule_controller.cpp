#include "schedule_controller.h"

namespace rematlens {

struct ScheduleController::Job : ControllerJob {
    Request request;
    std::size_t total = 0;
    std::size_t done = 0; // read and written on the GUI thread only
};

ScheduleController::ScheduleController(QObject *parent) : QObject(parent) {}

int ScheduleController::start(Request request)
{
    auto job = std::make_shared<Job>();
    job->id = m_jobs.beginJob();
    job->total = request.budgets.size() * ((request.checkpointing ? 1 : 0) + (request.optimal ? 1 : 0));
    job->request = std::move(request);
    m_jobs.launch(job, [this, job] { work(job); }, [this, job] { jobFinished(job); });
    emit progress(job->id, 0, job->total);
    return job->id;
}

void ScheduleController::cancel()
{
    m_jobs.cancel();
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

// Called with m_mutex held.
ScheduleCache::Answers &ScheduleController::knownFor(const QString &traceHash)
{
    auto found = m_known.find(traceHash);
    if (found == m_known.end())
        found = m_known.emplace(traceHash, ScheduleCache::load(traceHash)).first;
    return found->second;
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
            const auto &known = knownFor(r.traceHash).checkpoints;
            if (const auto found = known.find(r.budgets[column]); found != known.end())
                answer = found->second;
        }
        if (!answer) {
            answer = schedules->checkpoint(r.budgets[column]);
            const std::lock_guard<std::mutex> lock(m_mutex);
            m_known[r.traceHash].checkpoints[r.budgets[column]] = *answer;
            m_cache.store(r.traceHash, r.budgets[column], *answer);
        }
        deliver(job, column, answer, std::nullopt);
    }
    for (std::size_t column = 0; r.optimal && column < r.budgets.size() && !job->cancel; ++column) {
        const std::pair<Bytes, double> key{r.budgets[column], r.timeLimitSeconds};
        std::optional<OptimalAnswer> answer;
        {
            const std::lock_guard<std::mutex> lock(m_mutex);
            const auto &known = knownFor(r.traceHash).optima;
            if (const auto found = known.find(key); found != known.end())
                answer = found->second;
        }
        if (!answer) {
            answer = schedules->optimal(r.budgets[column], r.timeLimitSeconds);
            const std::lock_guard<std::mutex> lock(m_mutex);
            m_known[r.traceHash].optima[key] = *answer;
            m_cache.store(r.traceHash, key.first, key.second, *answer);
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
            if (job->id != m_jobs.current())
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

// The current job's end, on the GUI thread.
void ScheduleController::jobFinished(const std::shared_ptr<Job> &job)
{
    emit finished(job->id, job->cancel.load(), job->seconds());
}

} // namespace rematlens
