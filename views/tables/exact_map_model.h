#pragma once

#include "core/sim/run_request.h"
#include "views/strip/mapped_row.h"

#include <QObject>
#include <QString>

#include <map>

namespace rematlens {

// The exact maps of the trace shown, one per row identity (policy, runtime, allocator model and
// options, overhead limit, kept storages, seed: what changes a replay besides the budget), so a
// map belongs to exactly one strip row. The strip draws a sweep row from the map of its
// settings; maps grow as intervals arrive and a second walk over more budgets widens them.
// Maps of every trace opened are kept (by content hash): reopening one shows them again.
class ExactMapModel : public QObject {
    Q_OBJECT

public:
    explicit ExactMapModel(QObject *parent = nullptr);

    // The map's key: the row identity's (RowIdentity::key).
    static QString keyOf(const RunRequest &request);

    // Shows the maps of the trace with this content hash (none yet for a new one).
    void setTrace(const QString &contentHash);
    void clear();
    // Intervals found over `range` (more may follow): the map's range becomes the smallest
    // one holding every range mapped so far, budgets in it that no interval covers unmapped.
    void add(const QString &key, ByteRange range, const std::vector<RunResult> &intervals);
    const MappedRow *row(const QString &key) const;
    const MappedRow *row(const RunRequest &request) const { return row(keyOf(request)); }
    bool empty() const { return rows().empty(); }
    const std::map<QString, MappedRow> &rows() const { return m_traces.at(m_trace); }

signals:
    void changed();

private:
    std::map<QString, MappedRow> &current() { return m_traces[m_trace]; }

    QString m_trace;
    std::map<QString, std::map<QString, MappedRow>> m_traces;
};

} // namespace rematlens
