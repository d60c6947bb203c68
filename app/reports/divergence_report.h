#pragma once

#include "core/analysis/run_diff.h"
#include "core/trace/program.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace rematlens {

// How diff reports where two runs separate, shared by every command that explains one.

// One event of the reference stream: kind, clock, tensor, bytes, memory, step, depth (null if none).
nlohmann::ordered_json divergenceEventJson(const std::optional<ReplayEvent> &event, const Program &program);
// {"index", "a", "b"}, or null when the runs never separate.
nlohmann::ordered_json firstDivergenceJson(const RunDiff &diff, const Program &program);
nlohmann::ordered_json runTailJson(const RunTail &tail);

// "evict x (1,024 B) at clock 5, step 3, depth 1", or "(its events ended)".
std::string describeDivergenceEvent(const std::optional<ReplayEvent> &event, const Program &program);
// "12 evictions, 3 remats, peak depth 2"
std::string describeRunTail(const RunTail &tail);

} // namespace rematlens
