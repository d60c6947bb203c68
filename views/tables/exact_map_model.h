#pragma once

#include "core/sim/run_request.h"
#include "views/strip/mapped_row.h"
#include "views/tables/map_provenance.h"

#include <QObject>
#include <QString>

#include <map>
#include <memory>

namespace rematlens {

// The exact maps of the trace shown, one per row identity (policy, runtime, allocator model and
// options, overhead limit, kept storages, seed: what changes a replay besides the budget), so a
// map belongs to exactly one strip row, with where its intervals came from. The strip draws a
// sweep row from the map of its settings. Maps are immutable once built: a larger one (built off
// the GUI thread from a map and new intervals, see MappedRow::merged) replaces the smaller.
// Maps of every trace opened are kept (by content hash): reopening one shows them again.
class ExactMapModel : public QObject {
    Q_OBJECT

public:
    struct Entry {
        std::shared_ptr<const MappedRow> map;
        MapProvenance provenance;
    };

    explicit ExactMapModel(QObject *parent = nullptr);

    // The map's key: the row identity's (RowIdentity::key).
    static QString keyOf(const RunRequest &request);

    // Shows the maps of the trace with this content hash (none yet for a new one).
    void setTrace(const QString &contentHash);
    const QString &trace() const { return m_trace; }
    void clear();
    // Intervals found over `range`, merged here (for small maps; large ones are merged off the
    // GUI thread and handed to put): the map's range becomes the smallest one holding every
    // range mapped so far, budgets in it that no interval covers unmapped.
    void add(const QString &key, ByteRange range, const std::vector<RunResult> &intervals,
             const MapProvenance &from = MapProvenance{{}, false, true});
    // A map built elsewhere from this key's map (or from nothing) replaces it.
    void put(const QString &key, std::shared_ptr<const MappedRow> map, const MapProvenance &from);
    const MappedRow *row(const QString &key) const;
    const MappedRow *row(const RunRequest &request) const { return row(keyOf(request)); }
    std::shared_ptr<const MappedRow> shared(const QString &key) const;
    const Entry *entry(const QString &key) const;
    bool empty() const { return rows().empty(); }
    const std::map<QString, Entry> &rows() const { return m_traces.at(m_trace); }

signals:
    void changed();

private:
    std::map<QString, Entry> &current() { return m_traces[m_trace]; }

    QString m_trace;
    std::map<QString, std::map<QString, Entry>> m_traces;
};

} // namespace rematlens
