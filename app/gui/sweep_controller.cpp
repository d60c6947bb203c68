#include "sweep_controller.h"

#include "core/sweep/sweep_runner.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <chrono>

namespace rematlens {

struct SweepController::Job {
    int id = 0;
    std::size_t total = 0;
    std::atomic<bool> cancel{false};
    std::atomic<std::size_t> done{0};
    QFuture<void> future;
    std::chrono::steady_clock::time_point started;
};

SweepController::SweepController(QObject *parent) : QObject(parent)
{
    m_flushTimer.setInterval(50);
    connect(&m_flushTimer, &QTimer::timeout, this, &SweepController::flush);
}

SweepController::~SweepController()
{
    for (const std::shared_ptr<Job> &job : m_jobs)
        job->cancel = true;
    for (const std::shared_ptr<Job> &job : m_jobs)
        job->future.waitForFinished();
}

int SweepController::start(std::shared_ptr<const Program> program, std::vector<RunRequest> requests, int threads)
{
    cancel();
    auto job = std::make_shared<Job>();
    job->total = requests.size();
    job->started = std::chrono::steady_clock::now();
    {
        const std::lock_guard<std::mutex> lock(m_mutex); // workers read m_job under the lock
        m_pending.clear();
        job->id = ++m_job;
    }
    job->future = QtConcurrent::run([this, job, program, requests = std::move(requests), threads] {
        const SweepRunner runner(program, threads);
        runner.run(requests, &job->cancel, [&](std::size_t index, const RunResult &result) {
            if (result.outcome == Outcome::Cancelled)
                return;
            ++job->done;
            const std::lock_guard<std::mutex> lock(m_mutex);
            if (job->id == m_job) // results of an outdated job are dropped
                m_pending.push_back({index, result});
        });
    });
    auto *watcher = new QFutureWatcher<void>(this);
    connect(watcher, &QFutureWatcher<void>::finished, this, [this, watcher, job] {
        watcher->deleteLater();
        jobFinished(job);
    });
    watcher->setFuture(job->future);
    m_jobs.push_back(job);
    m_running = true;
    m_flushTimer.start();
    emit progress(job->id, 0, job->total);
    return job->id;
}

void SweepController::cancel()
{
    for (const std::shared_ptr<Job> &job : m_jobs)
        if (job->id == m_job)
            job->cancel = true;
}

void SweepController::flush()
{
    std::vector<IndexedResult> batch;
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        batch.swap(m_pending);
    }
    if (!batch.empty())
        emit resultsArrived(m_job, batch);
    for (const std::shared_ptr<Job> &job : m_jobs)
        if (job->id == m_job)
            emit progress(job->id, job->done.load(), job->total);
}

void SweepController::jobFinished(const std::shared_ptr<Job> &job)
{
    m_jobs.erase(std::remove(m_jobs.begin(), m_jobs.end(), job), m_jobs.end());
    if (job->id != m_job)
        return; // an outdated job wound down
    flush();
    m_flushTimer.stop();
    m_running = false;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - job->started).count();
    emit finished(job->id, job->cancel.load(), seconds);
}

} // namespace rematlens
