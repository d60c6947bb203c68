#include "progress_throttle.h"

#include <utility>

namespace rematlens {

ProgressThrottle::ProgressThrottle(QObject *parent) : QObject(parent)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(kIntervalMs);
    connect(&m_timer, &QTimer::timeout, this, &ProgressThrottle::showPending);
}

void ProgressThrottle::offer(std::function<void()> show)
{
    if (m_timer.isActive()) {
        m_pending = std::move(show);
        return;
    }
    show();
    m_timer.start();
}

void ProgressThrottle::drop()
{
    m_pending = nullptr;
    m_timer.stop();
}

void ProgressThrottle::showPending()
{
    if (!m_pending)
        return;
    std::exchange(m_pending, nullptr)();
    m_timer.start();
}

} // namespace rematlens
