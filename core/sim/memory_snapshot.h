#pragma once

#include "../alloc/allocator.h"
#include "run_result.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace rematlens {

// One block of a snapshot: its place, its state and, when allocated, the tensor whose storage
// it holds (kNone for a block of the operator being computed that holds no storage yet).
struct SnapshotBlock {
    Bytes address = 0;
    Bytes size = 0;
    BlockView::State state = BlockView::State::Free;
    TensorId tensor = kNone;
};

struct SnapshotSegment {
    Bytes base = 0;
    Bytes size = 0;
    std::vector<SnapshotBlock> blocks; // in address order, covering the segment
    SegmentPool pool = SegmentPool::Arena;
};

// The allocator's layout after a schedule step (or at the failing request, when the run ran out
// of memory at or before that step). Asked for through RunConfig::snapshot; only filled under
// an allocator model.
struct MemorySnapshot {
    std::size_t step = 0;          // asked for; after the run, the step the layout belongs to
    bool taken = false;
    bool atFailure = false;
    std::vector<SnapshotSegment> segments;
    Bytes reserved = 0;
    Bytes allocated = 0;
    Bytes capacity = 0;
    Bytes largestFreeBlock = 0;
    std::optional<Failure> failure; // at a failure: the request that did not fit, and why
    Bytes roundedRequest = 0;         // at a failure: the request as the model rounds it
    std::optional<Bytes> newSegment;  // at a failure: the segment a miss asks for (none in an arena)
    SegmentPool requestPool = SegmentPool::Arena; // at a failure: the pool that may serve the request
};

} // namespace rematlens
