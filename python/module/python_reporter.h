#pragma once

#include "app/requests/request_reporter.h"

#include <mutex>
#include <string>
#include <vector>

namespace rematlens {

// The Python module's reporter: errors and warnings are kept for the exception and the warnings
// the call raises; progress is kept for the Python thread to hand to the caller (workers never
// call into Python); stop() is what KeyboardInterrupt does.
class PythonReporter : public RequestReporter {
public:
    struct Progress {
        std::string label;
        std::size_t done = 0;
        std::size_t total = 0;
        bool finished = false;
    };

    void error(const std::string &message) override;
    void warning(const std::string &message) override;
    void progress(const std::string &label, std::size_t done, std::size_t total) override;
    void progressFinished(const std::string &label) override;
    const std::atomic<bool> &stopRequested() const override { return m_stop; }

    void stop() { m_stop.store(true); }
    // The first error reported (the one the command line would print first).
    std::string firstError() const;
    std::vector<std::string> takeWarnings();
    // The progress told since the last call, in order (only the newest of each label's updates).
    std::vector<Progress> takeProgress();

private:
    mutable std::mutex m_mutex;
    std::atomic<bool> m_stop{false};
    std::vector<std::string> m_errors;
    std::vector<std::string> m_warnings;
    std::vector<Progress> m_progress;
};

} // namespace rematlens
