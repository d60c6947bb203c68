#include "views/tables/exact_map_model.h"

#include "core/sim/run_identity.h"

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

void ExactMapModel::add(const QString &key, ByteRange range, const std::vector<RunResult> &intervals,
                        const MapProvenance &from)
{
    const Entry *known = entry(key);
    const MappedRow *base = known ? known->map.get() : nullptr;
    if (base && intervals.empty() && range.from >= base->summary.range.from && range.end <= base->summary.range.end)
        return; // nothing new (a large map is not rebuilt for nothing)
    put(key, std::make_shared<const MappedRow>(MappedRow::merged(base, range, intervals)), from);
}

void ExactMapModel::put(const QString &key, std::shared_ptr<const MappedRow> map, const MapProvenance &from)
{
    Entry &entry = current()[key];
    entry.map = std::move(map);
    entry.provenance.add(from);
    emit changed();
}

const ExactMapModel::Entry *ExactMapModel::entry(const QString &key) const
{
    const std::map<QString, Entry> &shown = rows();
    const auto found = shown.find(key);
    return found == shown.end() ? nullptr : &found->second;
}

const MappedRow *ExactMapModel::row(const QString &key) const
{
    const Entry *found = entry(key);
    return found ? found->map.get() : nullptr;
}

std::shared_ptr<const MappedRow> ExactMapModel::shared(const QString &key) const
{
    const Entry *found = entry(key);
    return found ? found->map : nullptr;
}

} // namespace rematlens
