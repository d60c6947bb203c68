#pragma once

#include "controller_jobs.h"
#include "core/sim/run_request.h"
#include "core/trace/program.h"
#include "views/tables/sweep_result_model.h"

#include <QObject>
#include <QTimer>

#include <memory>
#include <mutex>
#include <vector>

namespace rematlens {

// The one job runner behind the GUI: sweeps run off the GUI thread on oneTBB; each job has an
// id, results of outdated jobs are dropped, and results reach the GUI in batches (a timer
// flushes them) so that thousands of runs cost a handful of redraws.
class SweepController : public QObject {
    Q_OBJECT

public:
    explicit SweepController(QObject *parent = nullptr);

    // Starts a job (cancelling the one running); returns its id.
    int start(std::shared_ptr<const Program> program, std::vector<RunRequest> requests, int threads);
    void cancel();
    bool running() const { return m_jobs.running(); }
    int currentJob() const { return m_jobs.current(); }

signals:
    void resultsArrived(int job, const std::vector<rematlens::IndexedResult> &results);
    void progress(int job, std::size_t done, std::size_t total);
    void finished(int job, bool cancelled, double seconds);

private:
    struct Job;
    void flush();
    void jobFinished(const std::shared_ptr<Job> &job);

    std::mutex m_mutex;
    std::vector<IndexedResult> m_pending; // of the current job, guarded by m_mutex
    int m_current = 0;                    // the current job's id, for the workers, guarded by m_mutex
    QTimer m_flushTimer;
    ControllerJobs m_jobs{this};          // last: its destructor waits for the workers
};

} // namespace rematlens
