#pragma once

#include "core/map/byte_range.h"
#include "core/sim/baseline.h"
#include "core/sim/run_result.h"

#include <QString>

namespace rematlens {

// What the strip says about an exact map under the cursor: an interval's bounds, width and
// numbers (every budget in it replays the same), or that budgets were never mapped.
class MappedIntervalText {
public:
    static QString tooltip(const QString &policy, const RunResult &interval, const Baseline &baseline);
    static QString unmapped(const QString &policy, ByteRange gap, const Baseline &baseline);
    // "0.4190001234": enough decimals that neighbouring bytes read apart.
    static QString ratio(Bytes budget, const Baseline &baseline);
};

} // namespace rematlens
