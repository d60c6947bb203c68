#include "first_trail.h"

namespace rematlens {

bool FirstTrail::claim()
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    if (m_claimed)
        return false;
    m_claimed = true;
    return true;
}

void FirstTrail::publish(std::shared_ptr<const ReplayTrail> trail)
{
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        if (m_done)
            return;
        m_trail = std::move(trail);
        m_done = true;
    }
    m_published.notify_all();
}

std::shared_ptr<const ReplayTrail> FirstTrail::await()
{
    std::unique_lock<std::mutex> lock(m_mutex);
    m_published.wait(lock, [this] { return m_done; });
    return m_trail;
}

} // namespace rematlens
