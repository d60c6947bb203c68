#pragma once

#include "core/map/byte_range.h"
#include "core/sim/baseline.h"
#include "core/sim/run_result.h"

#include <QString>

#include <fstream>
#include <memory>
#include <vector>

namespace rematlens {

class ExactMapModel;

// The exact maps the window made, kept per trace (by its content's SHA-256) in the user's data
// directory next to the sweep cache, as JSON lines: a map's range when a walk starts, its intervals as they arrive (the
// records of `map --out`). Reopening the trace shows them at once; budgets of a range that no
// stored interval covers (a walk cancelled, or the window closed mid-way) stay unmapped.
class MapCache {
public:
    // Opens the cache of the trace with this content hash; false (cache off) when unusable.
    bool open(const QString &traceHash);
    static QString directory();
    // Every map stored for the trace, into the model (which shows that trace).
    void loadInto(ExactMapModel &model) const;
    void storeRange(const QString &key, ByteRange range);
    void storeIntervals(const QString &key, const std::vector<RunResult> &intervals, const Baseline &baseline);

private:
    bool append(const std::string &line);

    QString m_path;
    std::unique_ptr<std::ofstream> m_out;
    bool m_failed = false; // a write failed: the cache stays off for this trace
};

} // namespace rematlens
