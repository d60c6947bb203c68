#include "controller_jobs.h"

#include "background_jobs.h"

#include <QFutureWatcher>

#include <algorithm>

namespace rematlens {

ControllerJobs::~ControllerJobs()
{
    cancel();
    for (const std::shared_ptr<ControllerJob> &job : m_jobs)
        job->future.waitForFinished();
}

int ControllerJobs::beginJob()
{
    cancel();
    return ++m_current;
}

void ControllerJobs::launch(const std::shared_ptr<ControllerJob> &job, std::function<void()> work,
                            std::function<void()> finished)
{
    job->future = runInBackground(std::move(work));
    auto *watcher = new QFutureWatcher<void>(m_owner);
    QObject::connect(watcher, &QFutureWatcher<void>::finished, m_owner,
                     [this, watcher, job, finished = std::move(finished)] {
                         watcher->deleteLater();
                         jobEnded(job, finished);
                     });
    watcher->setFuture(job->future);
    m_jobs.push_back(job);
    m_running = true;
}

void ControllerJobs::cancel()
{
    for (const std::shared_ptr<ControllerJob> &job : m_jobs)
        job->cancel = true;
}

ControllerJob *ControllerJobs::currentJob() const
{
    for (const std::shared_ptr<ControllerJob> &job : m_jobs)
        if (job->id == m_current)
            return job.get();
    return nullptr;
}

// Running turns false before `finished`, so that a job started from it counts as running.
void ControllerJobs::jobEnded(const std::shared_ptr<ControllerJob> &job, const std::function<void()> &finished)
{
    if (job->id == m_current) {
        m_running = false;
        finished();
    }
    m_jobs.erase(std::remove(m_jobs.begin(), m_jobs.end(), job), m_jobs.end());
}

} // namespace rematlens
