#include "lazy_regions.h"

namespace rematlens {

LazyRegions::LazyRegions(const Program &program, const ReplayGraph &graph, bool deferRebuilds, bool acrossChoices,
                         RegionBook::Buffers recycled)
    : m_program(program)
    , m_flags(program.storages.size())
    , m_compute(program.storages.size(), 0)
    , m_search(program, graph, m_flags, m_compute)
    , m_book(program, graph, m_search, m_flags, m_compute, deferRebuilds, acrossChoices && !graph.editable(),
             std::move(recycled))
    , m_lazy(deferRebuilds && !graph.editable())
{
}

LazyRegions::LazyRegions(const LazyRegions &other, const ReplayGraph &graph)
    : m_program(other.m_program)
    , m_flags(other.m_flags)
    , m_compute(other.m_compute)
    , m_search(other.m_program, graph, m_flags, m_compute)
    , m_book(other.m_book, graph, m_search, m_flags, m_compute)
    , m_lazy(other.m_lazy)
    , m_record(other.m_record)
    , m_computedStorages(other.m_computedStorages)
{
}

void LazyRegions::computed(const std::vector<StorageId> &storages, TensorId now)
{
    const auto first = static_cast<std::uint32_t>(m_computedStorages.size());
    m_computedStorages.insert(m_computedStorages.end(), storages.begin(), storages.end());
    append({Kind::Computed, first, static_cast<std::uint32_t>(storages.size()), static_cast<Cost>(now)});
}

void LazyRegions::append(const Entry &entry)
{
    if (m_lazy) {
        m_record.push_back(entry);
        return;
    }
    apply(entry);
    m_computedStorages.clear();
}

void LazyRegions::catchUp(TensorId now)
{
    playBack();
    m_book.resolvePending(now);
}

void LazyRegions::playBack()
{
    for (const Entry &entry : m_record)
        apply(entry);
    m_record.clear();
    m_computedStorages.clear();
}

void LazyRegions::apply(const Entry &entry)
{
    switch (entry.kind) {
    case Kind::Materialized:
        m_flags.set(entry.storage, true);
        m_book.stateChanged(entry.storage);
        break;
    case Kind::Dematerialized:
        m_flags.set(entry.storage, false);
        m_book.stateChanged(entry.storage);
        break;
    case Kind::Pinned:
        m_flags.setPinned(entry.storage);
        m_book.stateChanged(entry.storage);
        break;
    case Kind::Compute:
        m_compute[entry.storage] += entry.value;
        m_book.computeChanged(entry.storage);
        break;
    case Kind::Computed:
        m_book.computed(std::span<const StorageId>(m_computedStorages).subspan(entry.storage, entry.count),
                        static_cast<TensorId>(entry.value));
        break;
    case Kind::Evicting: m_book.evicting(entry.storage, static_cast<TensorId>(entry.value)); break;
    case Kind::Evicted: m_book.evicted(entry.storage); break;
    case Kind::Resolve: m_book.resolvePending(static_cast<TensorId>(entry.value)); break;
    }
}

} // namespace rematlens
