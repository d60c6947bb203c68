#pragma once

#include <cstddef>
#include <string>

namespace rematlens {

// The progress of one piece of a request's work, told to the reporter in force (a bar on the
// terminal, the caller's function in Python): advance with the count done, finish once.
class ProgressBar {
public:
    ProgressBar(std::string label, std::size_t total);
    ~ProgressBar();
    ProgressBar(const ProgressBar &) = delete;
    ProgressBar &operator=(const ProgressBar &) = delete;
    void advance(std::size_t done);
    void finish();

private:
    std::string m_label;
    std::size_t m_total;
    bool m_finished = false;
};

} // namespace rematlens
