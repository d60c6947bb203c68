#pragma once

#include <QFuture>

#include <atomic>
#include <chrono>

namespace rematlens {

// What every controller's background job has: its id, the cancel flag its worker polls, the
// worker's future and when it started. Controllers derive their jobs' own state from it.
struct ControllerJob {
    virtual ~ControllerJob() = default;

    double seconds() const
    {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    }

    int id = 0;
    std::atomic<bool> cancel{false};
    QFuture<void> future;
    std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
};

} // namespace rematlens
