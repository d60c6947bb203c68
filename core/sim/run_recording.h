#pragma once

#include "replay_event.h"

#include <vector>

namespace rematlens {

// The runtime's state at one moment: after every operator call (each clock tick) and at the
// end of every model step where something changed.
struct TimelineSample {
    Cost clock;
    Bytes memory;          // in use
    Bytes lockedBytes;     // held by locked storages: pinned, or parents of an operator being run
    std::uint32_t step;    // index into Program::schedule
    std::uint32_t depth;   // materializations open; 0 between model steps
    std::uint32_t poolSize; // storages the policy may evict
};

// An allocator model's memory at one timeline sample: the highest reserved and allocated bytes
// since the sample before, so the series' maxima are the run's peaks exactly.
struct AllocationSample {
    Bytes reserved;
    Bytes allocated;
};

// Everything a recorded run saw, in order. Recording is opt-in (RunConfig::recording): a run
// without it pays one untaken branch per event.
struct RunRecording {
    std::vector<ReplayEvent> events;
    std::vector<TimelineSample> samples;
    // One per sample under an allocator model; empty under the byte sum.
    std::vector<AllocationSample> allocation;
};

} // namespace rematlens
