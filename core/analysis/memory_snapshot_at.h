#pragma once

#include "../sim/memory_snapshot.h"
#include "../sim/run_recording.h"
#include "../sim/run_request.h"

#include <optional>

namespace rematlens {

// Replays the request up to `step` and reads its allocator's layout there (or at the failing
// request, if the run fails first). Nothing under the byte sum, which has no addresses. The
// caller runs it off the GUI thread; request.config.cancel stops it early (then nothing).
std::optional<MemorySnapshot> snapshotAtStep(const Program &program, const RunRequest &request, std::size_t step);

// The step a memory map shows unless told otherwise: the failing step of a failed run, else the
// step where reserved memory peaks (the first such). Nothing when the recording has no
// allocator series.
std::optional<std::size_t> defaultSnapshotStep(const RunRecording &recording, const RunResult &result);

} // namespace rematlens
