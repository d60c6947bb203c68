#pragma once

#include "core/map/byte_range.h"
#include "core/sim/baseline.h"
#include "core/sim/run_result.h"

#include <QString>

#include <fstream>
#include <map>
#include <memory>
#include <vector>

class QLockFile;

namespace rematlens {

struct RunRequest;

// The exact maps the window made, kept per trace (by its content's SHA-256) in the user's data
// directory next to the sweep cache, as JSON lines: a map's range when a walk starts, its intervals as they arrive (the
// records of `map --out`). Reopening the trace shows them at once; budgets of a range that no
// stored interval covers (a walk cancelled, or the window closed mid-way) stay unmapped.
class MapCache {
public:
    // The maps stored for one trace, by key: the ranges walks were asked for, and the intervals.
    struct Stored {
        std::vector<ByteRange> ranges;
        std::vector<RunResult> intervals;
    };

    // Opens the cache of the trace with this content hash; false (cache off) when unusable.
    bool open(const QString &traceHash);
    static QString directory();
    static QString pathOf(const QString &traceHash);
    // Every map stored in the file at `path` (a trace's cache): a slow read for a large map, so
    // the window reads it off the GUI thread.
    // `bytesRead`: how much of the file that was (complete lines).
    static std::map<QString, Stored> read(const QString &path, qint64 *bytesRead = nullptr);
    // The file's size as this window last read or wrote it: another window has written to it
    // since when the file is larger (its intervals are then read again before walking).
    void setSeen(qint64 bytes) { m_seen = bytes; }
    bool changedElsewhere() const;
    static qint64 sizeOf(const QString &path);
    // A lock on mapping the row `key` of this trace: held by one window at a time, so two
    // windows never walk the same map twice; null while another process holds it.
    std::unique_ptr<QLockFile> lockRow(const QString &key) const;
    void storeRange(const QString &key, ByteRange range);
    // The records of `map --out` for the row `request` names (its policy, runtime, overhead
    // limit and kept tensors, as a map file of the command line would have them).
    void storeIntervals(const QString &key, const RunRequest &request, const std::vector<RunResult> &intervals,
                        const Baseline &baseline);

private:
    bool append(const std::string &line);

    QString m_path;
    std::unique_ptr<std::ofstream> m_out;
    bool m_failed = false; // a write failed: the cache stays off for this trace
    qint64 m_seen = 0;
};

} // namespace rematlens
