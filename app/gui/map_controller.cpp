#include "map_controller.h"

#include "core/map/budget_walker.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <chrono>
#include <map>

namespace rematlens {

struct MapController::Job {
    int id = 0;
    std::vector<MapJobRow> rows;
    ByteRange range;
    std::atomic<bool> cancel{false};
    std::atomic<Bytes> mapped{0}; // by finished rows, plus the running row's progress
    Bytes total = 0;
    std::atomic<std::size_t> replays{0};
    QFuture<void> future;
    std::chrono::steady_clock::time_point started;
};

MapController::MapController(QObject *parent) : QObject(parent)
{
    m_flushTimer.setInterval(50);
    connect(&m_flushTimer, &QTimer::timeout, this, &MapController::flush);
}

MapController::~MapController()
{
    for (const std::shared_ptr<Job> &job : m_jobs)
        job->cancel = true;
    for (const std::shared_ptr<Job> &job : m_jobs)
        job->future.waitForFinished();
}

int MapController::start(std::shared_ptr<const Program> program, std::vector<MapJobRow> rows, ByteRange range,
                         int threads)
{
    cancel();
    auto job = std::make_shared<Job>();
    job->rows = std::move(rows);
    job->range = range;
    for (const MapJobRow &row : job->rows)
        for (const ByteRange &todo : uncoveredRanges(range, row.known))
            job->total += todo.size();
    job->started = std::chrono::steady_clock::now();
    {
        const std::lock_guard<std::mutex> lock(m_mutex); // workers read m_job under the lock
        m_pending.clear();
        job->id = ++m_job;
    }
    job->future = QtConcurrent::run([this, job, program, threads] { walk(job, program, threads); });
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

// Runs on a worker thread.
void MapController::walk(const std::shared_ptr<Job> &job, const std::shared_ptr<const Program> &program, int threads)
{
    Bytes finishedRows = 0;
    for (std::size_t row = 0; row < job->rows.size() && !job->cancel; ++row) {
        const std::vector<ByteRange> todo = uncoveredRanges(job->range, job->rows[row].known);
        const BudgetWalker walker(program, job->rows[row].config, threads);
        const MapWalkEnd end = walker.walk(
            todo, &job->cancel,
            [&](const RunResult &interval) {
                const std::lock_guard<std::mutex> lock(m_mutex);
                if (job->id == m_job) // intervals of an outdated job are dropped
                    m_pending.push_back({row, interval});
            },
            [&](const MapProgress &progress) { job->mapped = finishedRows + progress.mapped; });
        job->replays += end.replays;
        for (const ByteRange &r : todo)
            finishedRows += r.size();
        job->mapped = finishedRows;
    }
}

void MapController::cancel()
{
    for (const std::shared_ptr<Job> &job : m_jobs)
        if (job->id == m_job)
            job->cancel = true;
}

void MapController::flush()
{
    std::vector<Found> batch;
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        batch.swap(m_pending);
    }
    for (const std::shared_ptr<Job> &job : m_jobs) {
        if (job->id != m_job)
            continue;
        std::map<std::size_t, std::vector<RunResult>> byRow;
        for (Found &found : batch)
            byRow[found.row].push_back(std::move(found.interval));
        for (const auto &[row, intervals] : byRow)
            emit intervalsArrived(job->id, job->rows[row].key, job->range, intervals);
        emit progress(job->id, job->mapped.load(), job->total);
    }
}

void MapController::jobFinished(const std::shared_ptr<Job> &job)
{
    if (job->id == m_job)
        flush(); // while the job is still listed, so its last intervals reach the GUI
    m_jobs.erase(std::remove(m_jobs.begin(), m_jobs.end(), job), m_jobs.end());
    if (job->id != m_job)
        return; // an outdated job wound down
    m_flushTimer.stop();
    m_running = false;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - job->started).count();
    emit finished(job->id, job->cancel.load(), seconds, job->replays.load());
}

} // namespace rematlens
