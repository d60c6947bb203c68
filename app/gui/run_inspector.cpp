#include "run_inspector.h"

#include <QPointer>
#include <QtConcurrent>

#include <thread>

namespace rematlens {

RunInspector::RunInspector(QObject *parent) : QObject(parent) {}

RunInspector::~RunInspector()
{
    cancel();
    m_future.waitForFinished();
}

void RunInspector::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
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
    m_future = QtConcurrent::run([self, job, program, run, comparison, stop] {
        std::shared_ptr<const InspectedRun> b;
        std::thread other; // both runs at once: the selection shows as soon as the slower is done
        if (comparison)
            other = std::thread([&] { b = inspectRun(*program, *comparison); });
        std::shared_ptr<const InspectedRun> a = inspectRun(*program, run);
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

} // namespace rematlens
