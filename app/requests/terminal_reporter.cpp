#include "app/requests/terminal_reporter.h"

#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <iostream>

namespace rematlens {

namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void onInterrupt(int)
{
    g_interrupted.store(true);
}

} // namespace

TerminalReporter &TerminalReporter::instance()
{
    static TerminalReporter reporter;
    return reporter;
}

void TerminalReporter::watchInterrupts()
{
    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
}

void TerminalReporter::error(const std::string &message)
{
    std::cerr << "rematlens: error: " << message << std::endl;
}

void TerminalReporter::warning(const std::string &message)
{
    std::cerr << "rematlens: warning: " << message << std::endl;
}

const std::atomic<bool> &TerminalReporter::stopRequested() const
{
    return g_interrupted;
}

void TerminalReporter::progress(const std::string &label, std::size_t done, std::size_t total)
{
    if (total == 0 || isatty(STDERR_FILENO) == 0)
        return;
    const std::lock_guard lock(m_mutex);
    const auto now = std::chrono::steady_clock::now();
    if (label != m_label) {
        m_label = label;
        m_start = now;
        m_drawn = false;
    }
    if (m_drawn && now - m_lastDraw < std::chrono::milliseconds(100) && done < total)
        return;
    m_lastDraw = now;
    draw(label, done, total);
}

void TerminalReporter::progressFinished(const std::string &label)
{
    const std::lock_guard lock(m_mutex);
    if (label == m_label && m_drawn)
        std::fputc('\n', stderr);
    m_label.clear();
    m_drawn = false;
}

void TerminalReporter::draw(const std::string &label, std::size_t done, std::size_t total)
{
    constexpr int kWidth = 30;
    const double fraction = static_cast<double>(done) / static_cast<double>(total);
    const int filled = static_cast<int>(fraction * kWidth);
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    char eta[32] = "--:--";
    if (done > 0 && done < total) {
        const auto left = static_cast<long>(elapsed / static_cast<double>(done) * static_cast<double>(total - done));
        std::snprintf(eta, sizeof eta, "%ld:%02ld left", left / 60, left % 60);
    } else if (done == total) {
        std::snprintf(eta, sizeof eta, "%.1f s", elapsed);
    }
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.append(static_cast<std::size_t>(kWidth - filled), '-');
    std::fprintf(stderr, "\r%s  %zu/%zu  %3d%% [%s] %s\x1b[K", label.c_str(), done, total,
                 static_cast<int>(fraction * 100), bar.c_str(), eta);
    std::fflush(stderr);
    m_drawn = true;
}

} // namespace rematlens
