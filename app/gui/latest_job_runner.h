#pragma once

#include "background_jobs.h"

#include <QMetaObject>
#include <QObject>
#include <QPointer>
#include <QThreadPool>

#include <atomic>
#include <memory>
#include <utility>

namespace rematlens {

// Runs one kind of work off the GUI thread where only the newest request matters (laying out
// the cascade of the run just selected, building its timeline): each request supersedes the
// one before, work still waiting when superseded is skipped, and only the newest result is
// delivered, on the GUI thread, to `deliver` while `context` lives. One worker thread, so
// requests run in order and never compete with each other.
class LatestJobRunner {
public:
    explicit LatestJobRunner(QObject *context) : m_context(context) { m_pool.setMaxThreadCount(1); }
    ~LatestJobRunner()
    {
        cancel();
        m_pool.waitForDone();
    }
    LatestJobRunner(const LatestJobRunner &) = delete;
    LatestJobRunner &operator=(const LatestJobRunner &) = delete;

    // work() runs on the worker; deliver(result) on the context's thread, if still the newest.
    template <class Work, class Deliver> void run(Work work, Deliver deliver)
    {
        const int job = m_latest->fetch_add(1) + 1;
        m_busy = true;
        QPointer<QObject> context(m_context);
        m_pool.start(
            [this, job, latest = m_latest, context, work = std::move(work), deliver = std::move(deliver)]() mutable {
                if (latest->load() != job)
                    return; // superseded while it waited
                lowerThreadPriority();
                auto result = work();
                if (!context)
                    return;
                // The destructor waits for this task, so `this` outlives it; the queued call checks
                // again that nothing newer was asked for meanwhile.
                QMetaObject::invokeMethod(
                    context.data(),
                    [this, job, latest, result = std::move(result), deliver = std::move(deliver)]() mutable {
                        if (latest->load() != job)
                            return;
                        m_busy = false;
                        deliver(std::move(result));
                    },
                    Qt::QueuedConnection);
            });
    }
    // Nothing asked for so far is delivered.
    void cancel()
    {
        m_latest->fetch_add(1);
        m_busy = false;
    }
    bool busy() const { return m_busy; }

private:
    QObject *m_context;
    QThreadPool m_pool;
    std::shared_ptr<std::atomic<int>> m_latest = std::make_shared<std::atomic<int>>(0);
    bool m_busy = false;
};

} // namespace rematlens
