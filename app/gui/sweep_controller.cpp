#include "sweep_controller.h"

#include "core/sweep/sweep_runner.h"

namespace rematlens {

struct SweepController::Job : ControllerJob {
    std::size_t total = 0;
    std::atomic<std::size_t> done{0};
};

SweepController::SweepController(QObject *parent) : QObject(parent)
{
    m_flushTimer.setInterval(50);
    connect(&m_flushTimer, &QTimer::timeout, this, &SweepController::flush);
}

int SweepController::start(std::shared_ptr<const Program> program, std::vector<RunRequest> requests, int threads)
{
    auto job = std::make_shared<Job>();
    job->total = requests.size();
    {
        const std::lock_guard<std::mutex> lock(m_mutex); // workers read m_current under the lock
        m_pending.clear();
        job->id = m_current = m_jobs.beginJob();
    }
    auto work = [this, job, program, requests = std::move(requests), threads] {
        const SweepRunner runner(program, threads);
        runner.run(requests, &job->cancel, [&](std::size_t index, const RunResult &result) {
            if (result.outcome == Outcome::Cancelled)
                return;
            ++job->done;
            const std::lock_guard<std::mutex> lock(m_mutex);
            if (job->id == m_current) // results of an outdated job are dropped
                m_pending.push_back({index, result});
        });
    };
    m_jobs.launch(job, std::move(work), [this, job] { jobFinished(job); });
    m_flushTimer.start();
    emit progress(job->id, 0, job->total);
    return job->id;
}

void SweepController::cancel()
{
    m_jobs.cancel();
}

void SweepController::flush()
{
    std::vector<IndexedResult> batch;
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        batch.swap(m_pending);
    }
    if (!batch.empty())
        emit resultsArrived(m_jobs.current(), batch);
    if (const auto *job = static_cast<const Job *>(m_jobs.currentJob()))
        emit progress(job->id, job->done.load(), job->total);
}

// The current job's end, on the GUI thread.
void SweepController::jobFinished(const std::shared_ptr<Job> &job)
{
    flush();
    m_flushTimer.stop();
    emit finished(job->id, job->cancel.load(), job->seconds());
}

} // namespace rematlens
