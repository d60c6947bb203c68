#include "progress_bar.h"

#include <unistd.h>

#include <cstdio>

namespace rematlens {

ProgressBar::ProgressBar(std::string label, std::size_t total)
    : m_label(std::move(label))
    , m_total(total)
    , m_enabled(isatty(STDERR_FILENO) != 0 && total > 0)
    , m_start(std::chrono::steady_clock::now())
    , m_lastDraw(m_start)
{
}

void ProgressBar::advance(std::size_t done)
{
    if (!m_enabled)
        return;
    const auto now = std::chrono::steady_clock::now();
    if (m_drawn && now - m_lastDraw < std::chrono::milliseconds(100) && done < m_total)
        return;
    m_lastDraw = now;
    draw(done);
}

void ProgressBar::finish()
{
    if (m_enabled && m_drawn)
        std::fputc('\n', stderr);
}

void ProgressBar::draw(std::size_t done)
{
    constexpr int kWidth = 30;
    const double fraction = static_cast<double>(done) / static_cast<double>(m_total);
    const int filled = static_cast<int>(fraction * kWidth);
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    char eta[32] = "--:--";
    if (done > 0 && done < m_total) {
        const auto left = static_cast<long>(elapsed / static_cast<double>(done) * static_cast<double>(m_total - done));
        std::snprintf(eta, sizeof eta, "%ld:%02ld left", left / 60, left % 60);
    } else if (done == m_total) {
        std::snprintf(eta, sizeof eta, "%.1f s", elapsed);
    }
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.append(static_cast<std::size_t>(kWidth - filled), '-');
    std::fprintf(stderr, "\r%s  %zu/%zu  %3d%% [%s] %s\x1b[K", m_label.c_str(), done, m_total,
                 static_cast<int>(fraction * 100), bar.c_str(), eta);
    std::fflush(stderr);
    m_drawn = true;
}

} // namespace rematlens
