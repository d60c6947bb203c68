#pragma once

#include "controller_job.h"

#include <QObject>

#include <functional>
#include <memory>
#include <vector>

namespace rematlens {

// The bookkeeping the job controllers (sweeps, maps, schedule rows) share. Each job runs on
// Qt's global thread pool; the newest job is the current one and a new one cancels those
// before it; jobs stay listed until their worker has returned, so the destructor can cancel
// and wait for every one of them. The owner's `finished` callback runs on its thread, for the
// current job only (an outdated job just winds down), while the job is still listed.
class ControllerJobs {
public:
    explicit ControllerJobs(QObject *owner) : m_owner(owner) {}
    ~ControllerJobs();
    ControllerJobs(const ControllerJobs &) = delete;
    ControllerJobs &operator=(const ControllerJobs &) = delete;

    // Cancels every listed job and makes the next id current; a controller whose workers
    // compare ids calls this under the lock they take.
    int beginJob();
    // Runs work() on a worker as `job` (whose id beginJob gave).
    void launch(const std::shared_ptr<ControllerJob> &job, std::function<void()> work, std::function<void()> finished);
    void cancel();

    bool running() const { return m_running; }
    int current() const { return m_current; }
    // The listed job with the current id, if it has not wound down.
    ControllerJob *currentJob() const;

private:
    void jobEnded(const std::shared_ptr<ControllerJob> &job, const std::function<void()> &finished);

    QObject *m_owner;
    std::vector<std::shared_ptr<ControllerJob>> m_jobs;
    int m_current = 0;
    bool m_running = false;
};

} // namespace rematlens
