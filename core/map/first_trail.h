#pragma once

#include "replay_trail.h"

#include <condition_variable>
#include <memory>
#include <mutex>

namespace rematlens {

// The trail of a walk's first replay, which the other threads' first replays follow instead of
// replaying from step 0 each. Neighbouring budgets mostly share most of a run, so a thread that
// waits one replay for this trail starts from a copy late in the run, or finds its budget
// inside the first interval and replays nothing; on narrow ranges of few intervals (an
// allocator model's) a thread's own first replay from step 0 was most of the walk's cost.
class FirstTrail {
public:
    // True for the one caller that replays first; the others await its trail.
    bool claim();
    // The first replay's trail, none if it did not resolve or kept no copies (too short for
    // copying to pay there; each thread then decides from its own first replay). Only the first
    // call counts.
    void publish(std::shared_ptr<const ReplayTrail> trail);
    std::shared_ptr<const ReplayTrail> await();

private:
    std::mutex m_mutex;
    std::condition_variable m_published;
    bool m_claimed = false;
    bool m_done = false;
    std::shared_ptr<const ReplayTrail> m_trail;
};

} // namespace rematlens
