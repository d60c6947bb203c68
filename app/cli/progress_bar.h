#pragma once

#include <chrono>
#include <string>

namespace rematlens {

// "sweep  412/901  45% [#########-----------] 0:12 left" on stderr, redrawn at most ten times
// a second, and only when stderr is a terminal.
class ProgressBar {
public:
    ProgressBar(std::string label, std::size_t total);
    void advance(std::size_t done);
    void finish();

private:
    void draw(std::size_t done);

    std::string m_label;
    std::size_t m_total;
    bool m_enabled;
    std::chrono::steady_clock::time_point m_start;
    std::chrono::steady_clock::time_point m_lastDraw;
    bool m_drawn = false;
};

} // namespace rematlens
