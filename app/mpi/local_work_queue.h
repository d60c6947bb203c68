#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rematlens {

// One rank's share of a WorkDistributor: item numbers waiting for a thread, and the results
// of finished items waiting to be sent (or written). Compute threads block in take() until an
// item comes or the queue is closed; the thread that talks to the other ranks waits for results.
class LocalWorkQueue {
public:
    using Result = std::pair<std::size_t, std::string>;

    void add(std::size_t first, std::size_t count);
    // No more items: take() returns nothing once the waiting ones are gone.
    void close();
    // Closes and forgets the waiting items.
    void abandon();

    std::optional<std::size_t> take();
    void complete(std::size_t item, std::string &&result);

    std::vector<Result> takeResults();
    std::size_t waiting() const;
    // Closed, nothing waiting, running or unsent.
    bool drained() const;
    // Until a result comes or the timeout passes.
    void awaitResult(std::chrono::microseconds timeout);

private:
    mutable std::mutex m_mutex;
    std::condition_variable m_itemsChanged;
    std::condition_variable m_resultAdded;
    std::deque<std::size_t> m_items;
    std::vector<Result> m_results;
    std::size_t m_running = 0;
    bool m_closed = false;
};

} // namespace rematlens
