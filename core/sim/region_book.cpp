#include "region_book.h"

#include <algorithm>
#include <limits>

namespace rematlens {

RegionBook::RegionBook(const Program &program, const ReplayGraph &graph, NeighbourhoodSearch &search,
                       MaterialFlags &flags, const std::vector<Cost> &compute, bool defer, bool acrossChoices,
                       Buffers recycled)
    : m_program(program)
    , m_graph(graph)
    , m_search(search)
    , m_compute(compute)
    , m_flags(flags)
    , m_forward(program.storages.size(), std::move(recycled.forward))
    , m_backward(program.storages.size(), std::move(recycled.backward))
    , m_pendingSlot(program.storages.size(), std::array<std::uint32_t, 2>{kNone, kNone})
    , m_closures(program, flags, compute)
    , m_sharedSearch(program, flags, compute)
    , m_defer(defer)
    , m_acrossChoices(defer && acrossChoices)
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
    , m_pendingSlot(other.m_pendingSlot)
    , m_closures(other.m_program, flags, compute)
    , m_sharedSearch(other.m_program, flags, compute)
    , m_snapshots(other.m_snapshots)
    , m_freeSnapshots(other.m_freeSnapshots)
    , m_defer(other.m_defer)
    , m_acrossChoices(other.m_acrossChoices)
{
}

void RegionBook::computed(std::span<const StorageId> storages, TensorId now)
{
    // The computed storages' own regions are needed now: their frontiers say whose regions
    // simrd rebuilds next. Their searches supersede any rebuild still pending for them.
    for (StorageId s : storages) {
        drop(s, true);
        drop(s, false);
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
    std::uint32_t &slot = m_pendingSlot[s][forward ? 0 : 1];
    if (slot != kNone) {
        m_pending[slot].visibleBelow = visibleBelow;
        release(m_pending[slot].absorbs); // simrd's rebuild replaces what they absorbed
        return;
    }
    slot = static_cast<std::uint32_t>(m_pending.size());
    m_pending.push_back({s, forward, visibleBelow, {}});
}

RegionBook::Pending RegionBook::take(StorageId s, bool forward)
{
    std::uint32_t &slot = m_pendingSlot[s][forward ? 0 : 1];
    Pending taken = std::move(m_pending[slot]);
    if (slot + 1 != m_pending.size()) {
        Pending &last = m_pending.back();
        m_pendingSlot[last.base][last.forward ? 0 : 1] = slot;
        m_pending[slot] = std::move(last);
    }
    m_pending.pop_back();
    slot = kNone;
    return taken;
}

void RegionBook::drop(StorageId s, bool forward)
{
    if (!pending(s, forward))
        return;
    Pending dropped = take(s, forward);
    release(dropped.absorbs);
}

void RegionBook::release(std::vector<std::uint32_t> &absorbs)
{
    for (std::uint32_t i : absorbs)
        if (--m_snapshots[i].references == 0)
            m_freeSnapshots.push_back(i);
    absorbs.clear();
}

void RegionBook::select(StorageId s, bool forward)
{
    if (pending(s, forward))
        m_selected.push_back(take(s, forward));
}

void RegionBook::resolveSelected(TensorId now)
{
    rebuild(m_selected, now);
    m_selected.clear();
}

void RegionBook::resolvePending(TensorId now)
{
    for (const Pending &p : m_pending)
        m_pendingSlot[p.base][p.forward ? 0 : 1] = kNone;
    rebuild(m_pending, now);
    m_pending.clear();
}

void RegionBook::evicting(StorageId s, TensorId now)
{
    if (!m_acrossChoices) {
        resolvePending(now);
        return;
    }
    select(s, true);
    select(s, false);
    resolveSelected(now);
}

void RegionBook::rebuild(std::vector<Pending> &rebuilds, TensorId now)
{
    m_group.clear();
    m_queued.clear();
    for (Pending &p : rebuilds) {
        if (m_flags.pinned(p.base))
            release(p.absorbs);
        else if (p.absorbs.empty())
            m_group.push_back(&p);
        else
            m_queued.push_back({victimsOf(p), &p});
    }
    search(m_group, now);
    if (m_queued.empty())
        return;
    // A search as simrd ran it sees the storages evicted since material: the rebuilds whose
    // queued evictions are of the same storages search together, with those material again,
    // then absorb the evictions in order.
    std::sort(m_queued.begin(), m_queued.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    for (std::size_t first = 0, end = 0; first < m_queued.size(); first = end) {
        m_group.clear();
        for (end = first; end < m_queued.size() && m_queued[end].first == m_queued[first].first; ++end)
            m_group.push_back(m_queued[end].second);
        setMaterialForAWhile(m_queued[first].first);
        search(m_group, now);
        restoreMaterial();
        for (Pending *p : m_group)
            absorbQueued(*p);
    }
}

void RegionBook::search(const std::vector<Pending *> &group, TensorId now)
{
    m_backwardBatch.clear();
    std::size_t previousSize = 0; // of the backward regions about to be rebuilt
    for (const Pending *p : group) {
        if (p->forward) {
            m_search.search(p->base, true, p->visibleBelow, m_forward.overwrite(p->base));
        } else {
            previousSize += m_backward[p->base].size();
            m_backwardBatch.push_back({p->base, p->visibleBelow, &m_backward.overwrite(p->base)});
        }
    }
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

std::vector<StorageId> RegionBook::victimsOf(const Pending &p) const
{
    std::vector<StorageId> victims;
    victims.reserve(p.absorbs.size());
    for (std::uint32_t i : p.absorbs)
        victims.push_back(m_snapshots[i].storage);
    std::sort(victims.begin(), victims.end());
    victims.erase(std::unique(victims.begin(), victims.end()), victims.end());
    return victims;
}

// The closures holding a storage whose flag changes are not carried into the next batch.
void RegionBook::setMaterialForAWhile(const std::vector<StorageId> &storages)
{
    m_flipped.clear();
    for (StorageId s : storages) {
        m_flipped.push_back({s, m_flags.material(s)});
        m_flags.set(s, true);
        m_closures.stateChanged(s);
    }
}

void RegionBook::restoreMaterial()
{
    for (const auto &[s, material] : m_flipped) {
        m_flags.set(s, material);
        m_closures.stateChanged(s);
    }
}

void RegionBook::absorbQueued(Pending &p)
{
    Region &out = table(p.forward).change(p.base);
    const std::size_t storageCount = m_program.storages.size();
    for (std::uint32_t i : p.absorbs) {
        const Snapshot &theirs = m_snapshots[i];
        const auto computeOf = [&](StorageId x) {
            if (x == theirs.storage)
                return theirs.storageCompute;
            const auto at = std::lower_bound(theirs.interiorCompute.begin(), theirs.interiorCompute.end(),
                                             std::pair<StorageId, Cost>{x, std::numeric_limits<Cost>::min()});
            return at->second;
        };
        out.absorb(theirs.storage, theirs.region, computeOf, storageCount);
    }
    release(p.absorbs);
}

// s's regions are read while the frontier's absorb them, then emptied. A pending region
// queues the absorb, with s's region as it is now.
void RegionBook::evicted(StorageId s)
{
    absorbInto(m_backward[s], s, true);
    absorbInto(m_forward[s], s, false);
    m_forward.overwrite(s).clear();
    m_backward.overwrite(s).clear();
}

void RegionBook::absorbInto(const Region &targets, StorageId s, bool forward)
{
    auto computeOf = [this](StorageId x) { return m_compute[x]; };
    const std::size_t storageCount = m_program.storages.size();
    const Region &theirs = table(forward)[s];
    std::uint32_t queued = kNone;
    targets.forEachFrontier([&](StorageId t) {
        if (m_flags.pinned(t))
            return;
        if (!pending(t, forward)) {
            table(forward).change(t).absorb(s, theirs, computeOf, storageCount);
            return;
        }
        if (queued == kNone)
            queued = snapshot(s, theirs);
        ++m_snapshots[queued].references;
        m_pending[m_pendingSlot[t][forward ? 0 : 1]].absorbs.push_back(queued);
    });
}

std::uint32_t RegionBook::snapshot(StorageId s, const Region &region)
{
    std::uint32_t i;
    if (m_freeSnapshots.empty()) {
        i = static_cast<std::uint32_t>(m_snapshots.size());
        m_snapshots.emplace_back();
    } else {
        i = m_freeSnapshots.back();
        m_freeSnapshots.pop_back();
    }
    Snapshot &taken = m_snapshots[i];
    taken.storage = s;
    taken.storageCompute = m_compute[s];
    taken.region = region;
    taken.interiorCompute.clear();
    region.forEachMember([&](StorageId x) { taken.interiorCompute.push_back({x, m_compute[x]}); });
    taken.references = 0;
    return i;
}

} // namespace rematlens
