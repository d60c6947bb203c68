#include "map_controller.h"

#include "core/map/budget_walker.h"
#include "core/map/impossible_stretch.h"

#include <map>

namespace rematlens {

struct MapController::Job : ControllerJob {
    std::vector<MapJobRow> rows;
    ByteRange range;
    std::atomic<Bytes> mapped{0}; // by finished rows, plus the running row's progress
    Bytes total = 0;
    std::atomic<std::size_t> replays{0};
};

MapController::MapController(QObject *parent) : QObject(parent)
{
    m_flushTimer.setInterval(50);
    connect(&m_flushTimer, &QTimer::timeout, this, &MapController::flush);
}

int MapController::start(std::shared_ptr<const Program> program, std::vector<MapJobRow> rows, ByteRange range,
                         int threads)
{
    auto job = std::make_shared<Job>();
    job->rows = std::move(rows);
    job->range = range;
    for (const MapJobRow &row : job->rows)
        for (const ByteRange &todo : uncoveredRanges(range, row.known))
            job->total += todo.size();
    {
        const std::lock_guard<std::mutex> lock(m_mutex); // workers read m_current under the lock
        m_pending.clear();
        job->id = m_current = m_jobs.beginJob();
    }
    m_jobs.launch(job, [this, job, program, threads] { walk(job, program, threads); }, [this, job] { jobFinished(job); });
    m_flushTimer.start();
    emit progress(job->id, 0, job->total);
    return job->id;
}

// Runs on a worker thread.
void MapController::walk(const std::shared_ptr<Job> &job, const std::shared_ptr<const Program> &program, int threads)
{
    Bytes finishedRows = 0;
    for (std::size_t row = 0; row < job->rows.size() && !job->cancel; ++row) {
        const BudgetWalker walker(program, job->rows[row].config, threads);
        const auto found = [&](const RunResult &interval) {
            const std::lock_guard<std::mutex> lock(m_mutex);
            if (job->id == m_current) // intervals of an outdated job are dropped
                m_pending.push_back({row, interval});
        };
        // Budgets below the fit floor fail whatever the schedule: one replay proves the stretch.
        std::vector<BudgetInterval> known = job->rows[row].known;
        if (!uncoveredRanges(job->range, known).empty())
            if (std::optional<RunResult> impossible =
                    impossibleStretch(*program, job->rows[row].config, job->range, walker, &job->cancel)) {
                found(*impossible);
                known.push_back(impossible->interval);
            }
        const std::vector<ByteRange> todo = uncoveredRanges(job->range, known);
        const MapWalkEnd end = walker.walk(
            todo, &job->cancel, found,
            [&](const MapProgress &progress) { job->mapped = finishedRows + progress.mapped; });
        job->replays += end.replays;
        for (const ByteRange &r : todo)
            finishedRows += r.size();
        job->mapped = finishedRows;
    }
}

void MapController::cancel()
{
    m_jobs.cancel();
}

void MapController::flush()
{
    std::vector<Found> batch;
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        batch.swap(m_pending);
    }
    if (const auto *job = static_cast<const Job *>(m_jobs.currentJob())) {
        std::map<std::size_t, std::vector<RunResult>> byRow;
        for (Found &found : batch)
            byRow[found.row].push_back(std::move(found.interval));
        for (const auto &[row, intervals] : byRow)
            emit intervalsArrived(job->id, job->rows[row].key, job->range, intervals);
        emit progress(job->id, job->mapped.load(), job->total);
    }
}

// The current job's end, on the GUI thread.
void MapController::jobFinished(const std::shared_ptr<Job> &job)
{
    flush(); // the job is still listed, so its last intervals reach the GUI
    m_flushTimer.stop();
    emit finished(job->id, job->cancel.load(), job->seconds(), job->replays.load());
}

} // namespace rematlens
