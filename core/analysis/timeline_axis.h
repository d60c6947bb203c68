#pragma once

#include "../sim/run_recording.h"

namespace rematlens {

// What a timeline's x axis counts: model steps (the schedule index; runs of one trace align
// step by step) or the simulated clock (compute spent so far, rematerializations included).
enum class TimelineAxis { Step, Clock };

inline double timelineX(const TimelineSample &s, TimelineAxis axis)
{
    return axis == TimelineAxis::Step ? double(s.step) : double(s.clock);
}

inline double timelineX(const ReplayEvent &e, TimelineAxis axis)
{
    return axis == TimelineAxis::Step ? double(e.step) : double(e.clock);
}

} // namespace rematlens
