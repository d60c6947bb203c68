#pragma once

#include "core/map/byte_range.h"
#include "core/sim/run_identity.h"
#include "core/sim/run_result.h"

#include <string>
#include <vector>

namespace rematlens {

// A complete map of a public trace kept with the program (atlas/maps/<short>.jsonl.gz: the
// gzip of a `map --out` file): the trace it was made from, the range it walked and, for each
// strip row it maps, that row's identity and intervals. Budgets of the range no interval covers
// were not reached when it was made: they stay unmapped.
struct BundledMap {
    struct Row {
        RowIdentity identity;             // the strip row these intervals belong to (trace hash left empty)
        std::vector<RunResult> intervals; // as the file lists them
    };
    std::string path;
    std::string traceSha256;
    ByteRange range;
    std::vector<Row> rows;
};

} // namespace rematlens
