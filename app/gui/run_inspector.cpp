#include "run_inspector.h"

#include "background_jobs.h"

#include <QPointer>
#include <QtConcurrent>

#include <thread>

namespace rematlens {

namespace {

// The kept run, or a fresh replay that is then kept.
std::shared_ptr<const InspectedRun> recorded(InspectedRunCache &cache, const Program &program, const RunRequest &request)
{
    if (auto kept = cache.find(&program, request))
        return kept;
    auto run = inspectRun(program, request);
    cache.insert(&program, run);
    return run;
}

} // namespace

RunInspector::RunInspector(QObject *parent) : QObject(parent) {}

RunInspector::~RunInspector()
{
    cancel();
    if (m_prefetchCancel)
        m_prefetchCancel->store(true);
    m_future.waitForFinished();
    m_prefetch.waitForFinished();
}

void RunInspector::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

void RunInspector::forget()
{
    if (m_prefetchCancel)
        m_prefetchCancel->store(true);
    m_cache->clear();
}

int RunInspector::inspect(std::shared_ptr<const Program> program, RunRequest run, std::optional<RunRequest> comparison)
{
    cancel();
    const int job = ++m_job;
    m_busy = true;
    auto stop = std::make_shared<std::atomic<bool>>(false);
    m_cancel = stop;
    run.config.cancel = stop.get();
    if (comparison)
        comparison->config.cancel = stop.get();
    QPointer<RunInspector> self(this);
    m_future = runInBackground([self, job, program, run, comparison, stop, cache = m_cache] {
        std::shared_ptr<const InspectedRun> b;
        std::thread other; // both runs at once: the selection shows as soon as the slower is done
        if (comparison)
            other = std::thread([&] { b = recorded(*cache, *program, *comparison); });
        std::shared_ptr<const InspectedRun> a = recorded(*cache, *program, run);
        if (other.joinable())
            other.join();
        if (stop->load())
            return; // superseded; the destructor waits for this, so self is alive here
        QMetaObject::invokeMethod(self.data(), [self, job, a, b] {
            if (!self || job != self->m_job)
                return;
            self->m_busy = false;
            emit self->inspected(job, a, b);
        }, Qt::QueuedConnection);
    });
    return job;
}

void RunInspector::prefetch(std::shared_ptr<const Program> program, std::vector<RunRequest> runs)
{
    if (m_prefetchCancel)
        m_prefetchCancel->store(true);
    auto stop = std::make_shared<std::atomic<bool>>(false);
    m_prefetchCancel = stop;
    for (RunRequest &r : runs)
        r.config.cancel = stop.get();
    m_prefetch = runInBackground([program, runs = std::move(runs), stop, cache = m_cache] {
        for (const RunRequest &r : runs) {
            if (stop->load())
                return;
            recorded(*cache, *program, r); // a cancelled replay is not kept
        }
    });
}

} // namespace rematlens
