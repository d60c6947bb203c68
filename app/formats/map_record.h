#pragma once

#include "core/sim/baseline.h"
#include "core/sim/run_config.h"
#include "core/sim/run_result.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace rematlens {

// What identifies one map of a trace: the records of several maps can share a file.
struct MapIdentity {
    std::string trace;
    std::string heuristic;
    std::string runtime;            // simrd's name
    double overheadLimit = 2.0;
    std::vector<std::string> keep;  // tensors kept resident, as the trace spells them
    std::string allocator = "sum";  // allocatorKey of the model the map replays under

    // trace, heuristic, runtime, overhead_limit, keep (when any) and allocator (when not the
    // byte sum), as records start
    nlohmann::ordered_json toJson() const;

    using Key = std::tuple<std::string, std::string, double, std::string, std::string>;
    Key key() const;
    static Key keyOf(const nlohmann::ordered_json &record);
};

// One interval of the map: lo, hi (null when unbounded), the result and the numbers every
// budget of the interval shares. An out-of-memory failure names where it ran out; its bytes
// short depend on the budget, so the record gives them at lo (the most); under an allocator
// whose capacity is the budget so does the largest free block, and the record says what both
// are made of ("capacity_figures") so a reader can restate them at any budget of the interval.
nlohmann::ordered_json mapRecordToJson(const MapIdentity &identity, const RunResult &result, const Baseline &baseline);

// Why an Outcome::Impossible interval cannot pass: the operator whose arguments and output
// cannot be resident at once under any budget of it (its failure says which).
std::string impossibleReason(const RunResult &result);

// The interval and numbers back from a record; nothing when the record is not an interval's.
std::optional<RunResult> mapRecordFromJson(const nlohmann::ordered_json &record);

} // namespace rematlens
