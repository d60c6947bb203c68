#include "views/tables/exact_map_model.h"

#include "core/sim/run_identity.h"

#include <algorithm>

namespace rematlens {

ExactMapModel::ExactMapModel(QObject *parent) : QObject(parent)
{
    m_traces[m_trace];
}

void ExactMapModel::setTrace(const QString &contentHash)
{
    m_trace = contentHash;
    m_traces[m_trace];
    emit changed();
}

QString ExactMapModel::keyOf(const RunRequest &request)
{
    return QString::fromStdString(rowIdentityOf({}, request).key());
}

void ExactMapModel::clear()
{
    current().clear();
    emit changed();
}

void ExactMapModel::add(const QString &key, ByteRange range, const std::vector<RunResult> &intervals)
{
    std::map<QString, MappedRow> &rows = current();
    auto found = rows.find(key);
    std::vector<RunResult> all = intervals;
    if (found != rows.end()) {
        const ByteRange &known = found->second.summary.range;
        if (intervals.empty() && range.from >= known.from && range.end <= known.end)
            return; // nothing new (a large map is not rebuilt on the GUI thread for nothing)
        all.insert(all.end(), found->second.intervals.begin(), found->second.intervals.end());
        range = ByteRange{std::min(range.from, known.from), std::max(range.end, known.end)};
    }
    rows[key] = MappedRow::build(range, std::move(all));
    emit changed();
}

const MappedRow *ExactMapModel::row(const QString &key) const
{
    const std::map<QString, MappedRow> &shown = rows();
    const auto found = shown.find(key);
    return found == shown.end() ? nullptr : &found->second;
}

} // namespace rematlens
