#pragma once

#include "app/formats/map_record.h"
#include "app/formats/provenance.h"

#include "core/map/byte_range.h"
#include "core/sim/run_result.h"

#include <optional>
#include <string>
#include <vector>

namespace rematlens {

// A map written by `rematlens map --out`, read back to be explained: its trace (found as the
// provenance names it, beside the file or in the working directory, unless given), its range,
// and each map's intervals (one map per policy, runtime, limit and keep list).
struct SavedMap {
    struct Part {
        MapIdentity identity;
        std::vector<RunResult> intervals; // sorted by lo
    };
    std::string path;
    std::string tracePath;
    Provenance provenance;
    ByteRange range;
    std::vector<Part> parts;

    // Nothing, with a message naming the file (and line), when it is not a map's, its trace is
    // not found or is not the one it was made from.
    static std::optional<SavedMap> read(const std::string &path, const std::string &givenTrace, std::string &error);
};

} // namespace rematlens
