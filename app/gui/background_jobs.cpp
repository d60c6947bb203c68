#include "background_jobs.h"

#include <QThread>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace rematlens {

QThreadPool &backgroundPool()
{
    static QThreadPool *pool = [] {
        auto *p = new QThreadPool;
        // Sweeps, maps, schedules, run replays, hole stories and loads may all run at once;
        // each mostly waits for its own TBB work, so threads are not cores.
        p->setMaxThreadCount(std::max(8, 2 * QThread::idealThreadCount()));
        p->setExpiryTimeout(30000);
        return p;
    }();
    return *pool;
}

void lowerThreadPriority()
{
#ifdef __linux__
    // On Linux a thread's nice value is its own: PRIO_PROCESS with a thread id sets that thread's.
    static thread_local bool lowered = false;
    if (!lowered)
        lowered = setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10) == 0;
#endif
}

} // namespace rematlens
