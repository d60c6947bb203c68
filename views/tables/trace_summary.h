#pragma once

#include "core/sim/baseline.h"
#include "core/trace/program_stats.h"

#include <QString>

namespace rematlens {

// What the summary panel shows about one trace: immutable values computed by the core.
struct TraceSummary {
    QString name;
    Baseline baseline;
    ProgramStats stats;
};

} // namespace rematlens
