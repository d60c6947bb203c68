#pragma once

#include "app/requests/allocator_options.h"
#include "app/requests/loaded_trace.h"
#include "app/requests/request_reporter.h"
#include "app/requests/request_settings.h"
#include "app/formats/map_record.h"

#include "core/map/byte_range.h"
#include "core/map/map_edge.h"
#include "core/map/map_summary.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rematlens {

// rematlens map, and holes --exact: what to map.
struct MapOptions {
    std::string trace;
    std::optional<std::string> from; // ratios, kept as text: parsed once, correctly rounded
    std::optional<std::string> to;
    std::optional<std::int64_t> fromBytes;
    std::optional<std::int64_t> toBytes;
    std::vector<std::string> policies;
    std::string runtime = "eager";
    std::string overheadLimit = "2.0";
    std::vector<std::string> keep;
    std::uint64_t seed = 0;
    AllocatorOptions allocator; // refused unless sum: the map's intervals hold for the byte sum only
    int threads = 0;
    std::optional<double> wallLimit;
    std::string outPath;
    std::string shard;                // "I/N": only the pieces of the range that shard I of N owns
    bool summaryOnly = false;         // walk nothing and explain no edge: what --out holds, summarised
    bool json = false;
};

// One policy's map over the range: its intervals (found now or read back from --out), summary
// and explained pass/fail edges.
struct PolicyMap {
    MapIdentity identity;
    RunConfig config;
    std::vector<RunResult> intervals; // sorted by lo
    MapSummary summary;
    std::vector<MapEdge> edges;
    std::size_t replays = 0;
    std::size_t joins = 0;            // replays that met an earlier one's path and followed it
    std::size_t fromFile = 0;         // intervals --out already held
    double seconds = 0;
    std::vector<double> busyPerRank;  // across MPI ranks: each rank's threads' busy fraction
};

struct ExactMap {
    LoadedTrace trace;
    ByteRange range;                  // budgets from..end-1
    std::vector<PolicyMap> maps;
    int threads = 0;
    int ranks = 1;
    bool interrupted = false;
};

class MpiWorld;

// Checks the options, reads the trace, walks every policy's map (appending to --out as
// intervals finish) and explains its edges. ExitOk, or the exit status after reporting why.
// With a world of several ranks every rank calls it; rank 0 alone writes --out, reports
// errors and holds the map (the others' ExactMap stays empty).
int makeExactMap(const MapOptions &options, ExactMap &map, const MpiWorld *world = nullptr);

} // namespace rematlens
