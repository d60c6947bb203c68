#pragma once

#include "core/sim/baseline.h"
#include "core/sim/run_request.h"
#include "core/sim/run_result.h"
#include "core/trace/program.h"

#include <nlohmann/json.hpp>

#include <string>

namespace rematlens {

// A run's record with the field names of simrd's reference outputs.
nlohmann::ordered_json runToJson(const RunRequest &request, const RunResult &result, const Baseline &baseline);

// A failure as records give it; bytesShortKey names the bytes short (map records give them at lo).
nlohmann::ordered_json failureToJson(const Failure &failure, const char *bytesShortKey = "bytes_short");
Failure failureFromJson(const nlohmann::ordered_json &object, const char *bytesShortKey = "bytes_short");
// Under an allocator model only (so the sum's records stay as simrd's reference has them): the
// failure's kind, request and largest free block.
void addAllocatorFailure(const Failure &failure, nlohmann::ordered_json &object);

// A run's result read back from its record (what runToJson wrote).
RunResult runFromJson(const nlohmann::ordered_json &record);

// The trace's baseline and counts (rematlens info --json).
nlohmann::ordered_json infoToJson(const std::string &trace, const Program &program, const Baseline &baseline);

// Short human-readable forms of the same.
std::string runToText(const RunRequest &request, const RunResult &result, const Baseline &baseline);
std::string infoToText(const std::string &trace, const Program &program, const Baseline &baseline);

// One event as the reference files list it: [kind, clock, tensor, bytes, memory].
nlohmann::json eventToJson(const ReplayEvent &event, const Program &program);

// The run's clock over the baseline's compute; 0 when the baseline computes nothing.
double overheadOf(const RunResult &result, const Baseline &baseline);

// 1234567 -> "1,234,567"
std::string groupDigits(std::int64_t value);

// (1.23456, 2) -> "1.23": fixed-point with `digits` decimals.
std::string fixedDigits(double value, int digits);

} // namespace rematlens
