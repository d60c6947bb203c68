#include "memory_snapshot_at.h"

#include "../sim/replay.h"

#include <algorithm>

namespace rematlens {

std::optional<MemorySnapshot> snapshotAtStep(const Program &program, const RunRequest &request, std::size_t step)
{
    if (request.config.allocator.isSum())
        return std::nullopt;
    MemorySnapshot snapshot;
    snapshot.step = step;
    RunConfig config = request.config;
    config.recording = nullptr;
    config.snapshot = &snapshot;
    const RunResult result = Replay(program, config).run();
    if (!snapshot.taken || result.outcome == Outcome::Cancelled)
        return std::nullopt;
    return snapshot;
}

std::optional<std::size_t> defaultSnapshotStep(const RunRecording &recording, const RunResult &result)
{
    if (recording.allocation.empty() || recording.allocation.size() != recording.samples.size())
        return std::nullopt;
    if (result.failure)
        return result.failure->step;
    const auto peak = std::max_element(recording.allocation.begin(), recording.allocation.end(),
                                       [](const AllocationSample &a, const AllocationSample &b) {
                                           return a.reserved < b.reserved;
                                       });
    return recording.samples[std::size_t(peak - recording.allocation.begin())].step;
}

} // namespace rematlens
