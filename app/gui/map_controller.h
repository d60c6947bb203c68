#pragma once

#include "controller_jobs.h"
#include "core/map/byte_range.h"
#include "core/sim/run_config.h"
#include "core/sim/run_result.h"
#include "core/trace/program.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>
#include <mutex>
#include <vector>

namespace rematlens {

// One map a job walks: the strip row's settings and what is already known of it.
struct MapJobRow {
    QString key;                        // ExactMapModel::keyOf the row's runs
    RunConfig config;                   // budget ignored
    std::vector<BudgetInterval> known;  // not walked again
};

// Exact maps off the GUI thread: each job walks its rows one after another with BudgetWalker
// (parallel inside), intervals reach the GUI in batches (a timer flushes them), and cancel
// stops the walk: what was found stays, the rest of the range is left unmapped.
class MapController : public QObject {
    Q_OBJECT

public:
    explicit MapController(QObject *parent = nullptr);

    // Starts a job (cancelling the one running); returns its id.
    int start(std::shared_ptr<const Program> program, std::vector<MapJobRow> rows, ByteRange range, int threads);
    void cancel();
    bool running() const { return m_jobs.running(); }
    int currentJob() const { return m_jobs.current(); }

signals:
    // Intervals of one row's map over `range` (more of them may follow).
    void intervalsArrived(int job, const QString &key, rematlens::ByteRange range,
                          const std::vector<rematlens::RunResult> &intervals);
    // Budgets classified so far and in all (of every row).
    void progress(int job, qint64 mapped, qint64 total);
    void finished(int job, bool cancelled, double seconds, std::size_t replays);

private:
    struct Job;
    struct Found {
        std::size_t row;
        RunResult interval;
    };
    void walk(const std::shared_ptr<Job> &job, const std::shared_ptr<const Program> &program, int threads);
    void flush();
    void jobFinished(const std::shared_ptr<Job> &job);

    std::mutex m_mutex;
    std::vector<Found> m_pending; // of the current job, guarded by m_mutex
    int m_current = 0;            // the current job's id, for the workers, guarded by m_mutex
    QTimer m_flushTimer;
    ControllerJobs m_jobs{this};  // last: its destructor waits for the workers
};

} // namespace rematlens
