#pragma once

#include "../alloc/allocator_config.h"
#include "policy.h"
#include "memory_snapshot.h"
#include "run_recording.h"
#include "runtime_kind.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <limits>
#include <string>
#include <vector>

namespace rematlens {

struct RunConfig {
    RuntimeKind runtime = RuntimeKind::Eager;
    Policy policy = *findPolicy("DTR");
    Bytes budget = std::numeric_limits<Bytes>::max();
    // The run is over the compute limit once rematerialization compute exceeds this
    // (simrd's float remat_limit, compared exactly).
    double rematLimit = std::numeric_limits<double>::infinity();
    std::uint64_t seed = 0;                    // for the random policies
    RunRecording *recording = nullptr;         // filled when set
    // Under an allocator model, filled with the layout after step snapshot->step (or at the
    // failing request when the run stops at or before it); the replay ends there, so its
    // result describes only the steps up to it.
    MemorySnapshot *snapshot = nullptr;
    // Tensors whose storages are never offered to the policy (still freed on their last release).
    std::vector<TensorId> keepResident;
    bool measureBottleneck = false;
    // Unresolved stops: past the deadline the run ends as Timeout; when *cancel turns true,
    // as Cancelled. Both are checked every few thousand steps.
    std::optional<std::chrono::steady_clock::time_point> deadline;
    const std::atomic<bool> *cancel = nullptr;
    // Defer region rebuilds until a region can be read (same results, much faster). Off
    // replays simrd's rebuild schedule literally; tests use it to check the deferral.
    bool deferRegionRebuilds = true;
    // How the budget meets memory: the byte sum (simrd's accounting) or an allocator model.
    AllocatorConfig allocator;
};

} // namespace rematlens

namespace rematlens {

// Why simrd would refuse this configuration, or empty when it runs.
std::string configProblem(const RunConfig &config);

} // namespace rematlens
