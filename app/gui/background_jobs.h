#pragma once

#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>
#include <utility>

namespace rematlens {

// Where the window's background work runs: its own thread pool, never Qt's global one. Qt's
// raster engine splits large fills among the global pool's threads and waits for them
// (QRasterPaintEngine::fill in Qt 6.4), so a sweep or a rescue search holding the global
// pool's two threads froze painting, menus and keys for seconds.
QThreadPool &backgroundPool();

// Lowers the calling thread's CPU priority (Linux: nice 10 for this thread alone; threads it
// starts, TBB's workers among them, inherit it): on a busy machine the GUI thread comes first.
void lowerThreadPriority();

// `f(args...)` on the background pool at low priority; its QFuture, as QtConcurrent::run's.
template <typename Function, typename... Args>
auto runInBackground(Function &&f, Args &&...args)
{
    return QtConcurrent::run(&backgroundPool(),
                             [f = std::forward<Function>(f), ... args = std::forward<Args>(args)]() mutable {
                                 lowerThreadPriority();
                                 return std::invoke(f, std::move(args)...);
                             });
}

} // namespace rematlens
