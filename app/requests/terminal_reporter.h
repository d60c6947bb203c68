#pragma once

#include "app/requests/request_reporter.h"
#include "app/requests/terminal_reporter.h"

#include <chrono>
#include <mutex>

namespace rematlens {

// The command line's reporter: "rematlens: error: ..." and "rematlens: warning: ..." on
// stderr, a progress bar redrawn at most ten times a second when stderr is a terminal
// ("sweep  412/901  45% [#########-----------] 0:12 left"), and a stop on SIGINT or SIGTERM
// once watchInterrupts() ran.
class TerminalReporter : public RequestReporter {
public:
    static TerminalReporter &instance();
    // From now on SIGINT and SIGTERM ask the request in force to stop.
    static void watchInterrupts();

    void error(const std::string &message) override;
    void warning(const std::string &message) override;
    void progress(const std::string &label, std::size_t done, std::size_t total) override;
    void progressFinished(const std::string &label) override;
    const std::atomic<bool> &stopRequested() const override;

private:
    void draw(const std::string &label, std::size_t done, std::size_t total);

    std::mutex m_mutex;
    std::string m_label; // of the bar drawn, if any
    std::chrono::steady_clock::time_point m_start;
    std::chrono::steady_clock::time_point m_lastDraw;
    bool m_drawn = false;
};

} // namespace rematlens
