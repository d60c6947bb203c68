#include "local_work_queue.h"

namespace rematlens {

void LocalWorkQueue::add(std::size_t first, std::size_t count)
{
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        for (std::size_t i = first; i < first + count; ++i)
            m_items.push_back(i);
    }
    m_itemsChanged.notify_all();
}

void LocalWorkQueue::close()
{
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_closed = true;
    }
    m_itemsChanged.notify_all();
}

void LocalWorkQueue::abandon()
{
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_closed = true;
        m_items.clear();
    }
    m_itemsChanged.notify_all();
}

std::optional<std::size_t> LocalWorkQueue::take()
{
    std::unique_lock<std::mutex> lock(m_mutex);
    m_itemsChanged.wait(lock, [this] { return !m_items.empty() || m_closed; });
    if (m_items.empty())
        return std::nullopt;
    const std::size_t item = m_items.front();
    m_items.pop_front();
    ++m_running;
    return item;
}

void LocalWorkQueue::complete(std::size_t item, std::string &&result)
{
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        --m_running;
        m_results.emplace_back(item, std::move(result));
    }
    m_resultAdded.notify_all();
}

std::vector<LocalWorkQueue::Result> LocalWorkQueue::takeResults()
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    std::vector<Result> results;
    results.swap(m_results);
    return results;
}

std::size_t LocalWorkQueue::waiting() const
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    return m_items.size();
}

bool LocalWorkQueue::drained() const
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    return m_closed && m_items.empty() && m_running == 0 && m_results.empty();
}

void LocalWorkQueue::awaitResult(std::chrono::microseconds timeout)
{
    std::unique_lock<std::mutex> lock(m_mutex);
    m_resultAdded.wait_for(lock, timeout, [this] { return !m_results.empty(); });
}

} // namespace rematlens
