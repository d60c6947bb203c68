#include "map_row_builder.h"

#include "background_jobs.h"

#include "views/tables/exact_map_model.h"

#include <QFutureWatcher>

#include <memory>

namespace rematlens {

MapRowBuilder::MapRowBuilder(ExactMapModel &maps, QObject *parent) : QObject(parent), m_maps(maps) {}

void MapRowBuilder::add(const QString &key, ByteRange range, std::vector<RunResult> intervals, const MapProvenance &from)
{
    Pending &pending = m_waiting[key];
    if (!pending.any) {
        pending.range = range;
        pending.any = true;
    } else {
        pending.range = ByteRange{std::min(pending.range.from, range.from), std::max(pending.range.end, range.end)};
    }
    pending.intervals.insert(pending.intervals.end(), std::make_move_iterator(intervals.begin()),
                             std::make_move_iterator(intervals.end()));
    pending.from.add(from);
    if (!m_inFlight.count(key))
        startNext(key);
}

void MapRowBuilder::startNext(const QString &key)
{
    const auto waiting = m_waiting.find(key);
    if (waiting == m_waiting.end() || !waiting->second.any) {
        m_inFlight.erase(key);
        // Said from the event loop, never from inside add(): a caller adding several batches
        // hears it once they are all in.
        if (m_inFlight.empty())
            QMetaObject::invokeMethod(this, [this] {
                if (!busy())
                    emit settled();
            }, Qt::QueuedConnection);
        return;
    }
    Pending job = std::move(waiting->second);
    m_waiting.erase(waiting);
    std::shared_ptr<const MappedRow> base = m_maps.shared(key);
    const MappedRow *known = base.get();
    m_inFlight.insert(key);
    if (known && job.intervals.empty() && job.range.from >= known->summary.range.from &&
        job.range.end <= known->summary.range.end) { // nothing new: no merge
        if (!(job.from == MapProvenance{}))
            m_maps.put(key, base, job.from);
        startNext(key);
        return;
    }
    const int generation = m_generation;
    auto *watcher = new QFutureWatcher<std::shared_ptr<const MappedRow>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, key, generation, from = job.from] {
        watcher->deleteLater();
        if (generation != m_generation)
            return; // another trace since
        m_maps.put(key, watcher->result(), from);
        startNext(key);
    });
    watcher->setFuture(runInBackground([base, range = job.range, intervals = std::move(job.intervals)]() mutable {
        return std::make_shared<const MappedRow>(MappedRow::merged(base.get(), range, std::move(intervals)));
    }));
}

void MapRowBuilder::forget()
{
    ++m_generation;
    m_waiting.clear();
    const bool wasBusy = busy();
    m_inFlight.clear();
    if (wasBusy)
        emit settled();
}

} // namespace rematlens
