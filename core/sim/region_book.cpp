#include "region_book.h"

namespace rematlens {

RegionBook::RegionBook(const Program &program, const ReplayGraph &graph, NeighbourhoodSearch &search,
                       MaterialFlags &flags, const std::vector<Cost> &compute, bool defer, Buffers recycled)
    : m_program(program)
    , m_graph(graph)
    , m_search(search)
    , m_compute(compute)
    , m_flags(flags)
    , m_forward(program.storages.size(), std::move(recycled.forward))
    , m_backward(program.storages.size(), std::move(recycled.backward))
    , m_pendingSlot{std::vector<std::uint32_t>(program.storages.size(), kNone),
                    std::vector<std::uint32_t>(program.storages.size(), kNone)}
    , m_closures(program, flags, compute)
    , m_sharedSearch(program, flags, compute)
    , m_defer(defer)
{
}

RegionBook::RegionBook(const RegionBook &other, const ReplayGraph &graph, NeighbourhoodSearch &search,
                       MaterialFlags &flags, const std::vector<Cost> &compute)
    : m_program(other.m_program)
    , m_graph(graph)
    , m_search(search)
    , m_compute(compute)
    , m_flags(flags)
    , m_forward(other.m_forward)
    , m_backward(other.m_backward)
    , m_pending(other.m_pending)
    , m_pendingSlot{other.m_pendingSlot[0], other.m_pendingSlot[1]}
    , m_closures(other.m_program, flags, compute)
    , m_sharedSearch(other.m_program, flags, compute)
    , m_defer(other.m_defer)
{
}

void RegionBook::computed(std::span<const StorageId> storages, TensorId now)
{
    // The computed storages' own regions are needed now: their frontiers say whose regions
    // simrd rebuilds next.
    for (StorageId s : storages) {
        m_search.search(s, true, now, m_forward.overwrite(s));
        m_search.search(s, false, now, m_backward.overwrite(s));
    }
    for (StorageId s : storages) {
        m_backward[s].forEachFrontier([&](StorageId b) { schedule(b, true, now); });
        m_forward[s].forEachFrontier([&](StorageId c) { schedule(c, false, now); });
    }
    if (!m_defer)
        resolvePending(now);
}

// Regions of pinned storages are never read again (pinned storages are neither scored nor
// evicted), so they are not kept up to date: the results are the same.
void RegionBook::schedule(StorageId s, bool forward, TensorId visibleBelow)
{
    if (m_flags.pinned(s))
        return;
    std::uint32_t &slot = m_pendingSlot[forward ? 0 : 1][s];
    if (slot != kNone) {
        m_pending[slot].visibleBelow = visibleBelow;
        return;
    }
    slot = static_cast<std::uint32_t>(m_pending.size());
    m_pending.push_back({s, forward, visibleBelow});
}

void RegionBook::resolvePending(TensorId now)
{
    m_backwardBatch.clear();
    std::size_t previousSize = 0; // of the backward regions about to be rebuilt
    for (const Pending &p : m_pending) {
        m_pendingSlot[p.forward ? 0 : 1][p.base] = kNone;
        if (m_flags.pinned(p.base))
            continue;
        if (p.forward) {
            m_search.search(p.base, true, p.visibleBelow, m_forward.overwrite(p.base));
        } else {
            previousSize += m_backward[p.base].size();
            m_backwardBatch.push_back({p.base, p.visibleBelow, &m_backward.overwrite(p.base)});
        }
    }
    m_pending.clear();
    // Several backward regions built at once share their walk: by closure bitmaps when those
    // pay (judged by the sizes these regions had last time), else by one walk carrying a mask
    // of the searches. The literal schedule keeps one-by-one searches.
    if (m_defer && m_backwardBatch.size() > 1 && !m_graph.editable()) {
        if (m_closures.worthwhile(previousSize, m_backwardBatch.size()) && m_closures.searchAll(m_backwardBatch, now))
            return;
        if (m_sharedSearch.searchAll(m_backwardBatch, now))
            return;
    }
    for (const BackwardClosures::Request &r : m_backwardBatch)
        m_search.search(r.base, false, r.visibleBelow, *r.out);
}

// s's regions are read while the frontier's absorb them, then emptied.
void RegionBook::evicted(StorageId s)
{
    auto computeOf = [this](StorageId x) { return m_compute[x]; };
    const std::size_t storageCount = m_program.storages.size();
    const Region &forwardOfS = m_forward[s];
    const Region &backwardOfS = m_backward[s];
    backwardOfS.forEachFrontier([&](StorageId ps) {
        if (!m_flags.pinned(ps))
            m_forward.change(ps).absorb(s, forwardOfS, computeOf, storageCount);
    });
    forwardOfS.forEachFrontier([&](StorageId cs) {
        if (!m_flags.pinned(cs))
            m_backward.change(cs).absorb(s, backwardOfS, computeOf, storageCount);
    });
    m_forward.overwrite(s).clear();
    m_backward.overwrite(s).clear();
}

} // namespace rematlens
