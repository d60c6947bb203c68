// Choosing what to evict: simrd's scan of the pool, its scores, and the evicted-neighbourhood
// bookkeeping (regions and equivalence classes) that the scores read.
#include "replay.h"

#include "exact_ratio.h"

#include <algorithm>
#include <limits>

namespace rematlens {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

double signedRatio(Cost numerator, uint128 denominator)
{
    if (numerator < 0)
        return -exactRatio(static_cast<std::uint64_t>(-numerator), denominator);
    return exactRatio(static_cast<std::uint64_t>(numerator), denominator);
}

} // namespace

// Lowest score wins; among equal scores the later one in the pool; a zero stops the scan.
template <typename Score>
StorageId Replay::scanPool(Score &&score)
{
    using Value = decltype(score(StorageId{}));
    Value best{};
    StorageId chosen = kNone;
    m_pool.scan([&](StorageId s) {
        const Value value = score(s);
        ++m_result.heuristicEvals;
        if (chosen == kNone || value <= best) {
            best = value;
            chosen = s;
        }
        return value != 0;
    });
    return chosen;
}

StorageId Replay::chooseVictim()
{
    const Policy &policy = m_config.policy;
    switch (policy.cost) {
    case CostTerm::Random: {
        ++m_result.heuristicEvals;
        std::uniform_int_distribution<std::size_t> pick(0, m_pool.size() - 1);
        return m_pool.nth(pick(m_random));
    }
    case CostTerm::LastAccess:
        return scanPool([&](StorageId s) { return m_lastAccess[s]; });
    default:
        break;
    }
    if (!policy.divideBySize && !policy.divideByStaleness) // an integer score: compare exactly
        return scanPool([&](StorageId s) { return costTerm(s); });
    return scanPool([&](StorageId s) {
        Cost lastAccess = m_lastAccess[s];
        Cost numerator = 1;
        if (policy.cost == CostTerm::FreshEStar)
            numerator = freshNeighbourhood(s, lastAccess);
        else if (policy.cost != CostTerm::NoCost)
            numerator = costTerm(s);
        return ratioScore(s, numerator, lastAccess);
    });
}

// numerator / (size and/or staleness) as simrd computes it, +infinity for a zero denominator.
double Replay::ratioScore(StorageId s, Cost numerator, Cost lastAccess) const
{
    const Policy &policy = m_config.policy;
    const auto size = static_cast<std::uint64_t>(m_program.storages[s].size);
    const bool neverAccessed = lastAccess == kNeverAccessed; // staleness is +infinity
    const auto staleness = neverAccessed ? 0 : static_cast<std::uint64_t>(m_clock - lastAccess);
    if (policy.divideBySize && policy.divideByStaleness) {
        if (neverAccessed)
            return size > 0 ? 0.0 : kInfinity; // x / inf, or 0 * inf = nan failing "> 0"
        return signedRatio(numerator, static_cast<uint128>(size) * staleness);
    }
    if (policy.divideBySize)
        return signedRatio(numerator, size);
    if (neverAccessed)
        return 0.0;
    return signedRatio(numerator, staleness);
}

Cost Replay::costTerm(StorageId s)
{
    switch (m_config.policy.cost) {
    case CostTerm::EStar: return m_compute[s] + m_forward[s].compute + m_backward[s].compute;
    case CostTerm::BackwardOnly: return m_compute[s] + m_backward[s].compute;
    case CostTerm::EqClass: return eqClassCompute(s);
    default: return m_compute[s];
    }
}

Cost Replay::eqClassCompute(StorageId s)
{
    collectEvictedNeighbours(s);
    Cost total = m_compute[s];
    std::vector<EqClassForest::Node> roots;
    for (StorageId n : m_scratch) {
        if (m_eqNode[n] == kNone)
            continue;
        const EqClassForest::Node root = m_eq.root(m_eqNode[n]);
        if (std::find(roots.begin(), roots.end(), root) == roots.end()) {
            roots.push_back(root);
            total += m_eq.value(root);
        }
    }
    return total;
}

// The storages next to s in one direction: through the program's storage-level edges (the
// prefix visible so far), or tensor by tensor when banishing edits the graph.
template <typename Visit>
void Replay::forEachNeighbour(StorageId s, bool forward, Visit &&visit) const
{
    if (!m_graph.editable()) {
        const TensorId created = m_graph.created();
        for (const StorageEdge &edge : m_program.storageNeighbours(s, forward)) {
            if (edge.visibleFrom >= created)
                break;
            visit(edge.storage);
        }
        return;
    }
    for (TensorId t : m_graph.tensorsOf(s))
        for (TensorId u : forward ? m_graph.children(t) : m_graph.parents(t))
            visit(m_program.storageOf(u));
}

// DTRUnopt: the neighbourhood searched afresh in both directions; its compute is summed and
// its latest access becomes the staleness reference.
Cost Replay::freshNeighbourhood(StorageId s, Cost &lastAccess)
{
    rebuildRegion(s, true, m_scratchForward);
    rebuildRegion(s, false, m_scratchBackward);
    m_marks.clear();
    Cost total = m_compute[s];
    lastAccess = m_lastAccess[s];
    for (const Region *region : {&m_scratchForward, &m_scratchBackward})
        for (StorageId u : region->interior)
            if (m_marks.insert(u)) {
                total += m_compute[u];
                lastAccess = std::max(lastAccess, m_lastAccess[u]);
            }
    return total;
}

void Replay::collectEvictedNeighbours(StorageId s)
{
    m_scratch.clear();
    m_marks.clear();
    auto visit = [&](StorageId us) {
        if (!material(us) && us != s && m_marks.insert(us))
            m_scratch.push_back(us);
    };
    forEachNeighbour(s, false, visit);
    forEachNeighbour(s, true, visit);
}

std::uint32_t Replay::nextSearchStamp()
{
    if (++m_searchStamp > kStampMask) { // wrapped: forget old stamps, keep the material bits
        for (std::uint32_t &state : m_state)
            state &= kMaterialBit;
        m_searchStamp = 1;
    }
    return m_searchStamp;
}

// simrd's Region.rebuild: a search from base through evicted storages only. Reached evicted
// storages form the interior (their compute summed), reached material ones the frontier.
// This is the hot loop of every region-keeping policy, so it walks the storage-level edges
// with one packed word per storage (material bit and search stamp) to test and mark.
void Replay::rebuildRegion(StorageId base, bool forward, Region &out)
{
    out.clear();
    if (m_graph.editable()) {
        rebuildRegionTensorWise(base, forward, out);
        return;
    }
    const std::uint32_t stamp = nextSearchStamp();
    const TensorId created = m_graph.created();
    const std::uint32_t *offsets = (forward ? m_program.forwardEdgeOffsets : m_program.backwardEdgeOffsets).data();
    const StorageEdge *edges = (forward ? m_program.forwardEdges : m_program.backwardEdges).data();
    std::uint32_t *state = m_state.data();
    const Cost *compute = m_compute.data();
    StorageId *interior = m_searchInterior.data(); // each storage lands at most once, so N slots suffice
    StorageId *frontier = m_searchFrontier.data();
    std::size_t interiorCount = 0;
    std::size_t frontierCount = 0;
    Cost total = 0;
    state[base] = (state[base] & kMaterialBit) | stamp; // the base is never its own frontier
    // The interior doubles as the work list: each reached evicted storage is expanded once.
    StorageId x = base;
    for (std::size_t next = 0;; x = interior[next++]) {
        for (const StorageEdge *e = edges + offsets[x], *end = edges + offsets[x + 1]; e != end; ++e) {
            if (e->visibleFrom >= created)
                break; // edges are sorted by visibility
            const StorageId us = e->storage;
            const std::uint32_t word = state[us];
            if ((word & kStampMask) == stamp)
                continue;
            state[us] = (word & kMaterialBit) | stamp;
            if (word & kMaterialBit) {
                frontier[frontierCount++] = us;
            } else {
                total += compute[us];
                interior[interiorCount++] = us;
            }
        }
        if (next == interiorCount)
            break;
    }
    out.interior.assign(interior, interior + interiorCount);
    out.frontier.assign(frontier, frontier + frontierCount);
    out.compute = total;
}

// The same search over tensors, for the banishing runtime whose graph edits itself.
void Replay::rebuildRegionTensorWise(StorageId base, bool forward, Region &out)
{
    m_marks.clear();
    m_frontierMarks.clear();
    m_searchStack.clear();
    m_searchStack.push_back(base);
    while (!m_searchStack.empty()) {
        const StorageId x = m_searchStack.back();
        m_searchStack.pop_back();
        forEachNeighbour(x, forward, [&](StorageId us) {
            if (material(us)) {
                if (us != base && m_frontierMarks.insert(us))
                    out.frontier.push_back(us);
            } else if (m_marks.insert(us)) {
                out.compute += m_compute[us];
                out.interior.push_back(us);
                m_searchStack.push_back(us);
            }
        });
    }
}

// Regions of pinned storages are never read again (pinned storages are never scored nor
// evicted), so they are neither absorbed into nor rebuilt: the results are the same.
void Replay::updateRegionsOnEvict(StorageId s)
{
    auto computeOf = [this](StorageId x) { return m_compute[x]; };
    const Region forwardOfS = std::move(m_forward[s]);
    const Region backwardOfS = std::move(m_backward[s]);
    m_forward[s].clear();
    m_backward[s].clear();
    for (StorageId ps : backwardOfS.frontier)
        if (!m_pinned[ps])
            m_forward[ps].absorb(s, forwardOfS, computeOf, m_marks, m_program.storages.size());
    for (StorageId cs : forwardOfS.frontier)
        if (!m_pinned[cs])
            m_backward[cs].absorb(s, backwardOfS, computeOf, m_marks, m_program.storages.size());
    m_forward[s].clear();
    m_backward[s].clear();
}

void Replay::updateRegionsOnCompute()
{
    std::vector<StorageId> &forwardStale = m_scratchForward.interior; // reused buffers
    std::vector<StorageId> &backwardStale = m_scratchBackward.interior;
    forwardStale.clear();
    backwardStale.clear();
    for (StorageId s : m_rematStorages) {
        rebuildRegion(s, true, m_forward[s]);
        rebuildRegion(s, false, m_backward[s]);
        forwardStale.insert(forwardStale.end(), m_backward[s].frontier.begin(), m_backward[s].frontier.end());
        backwardStale.insert(backwardStale.end(), m_forward[s].frontier.begin(), m_forward[s].frontier.end());
    }
    for (std::vector<StorageId> *list : {&forwardStale, &backwardStale}) {
        std::sort(list->begin(), list->end());
        list->erase(std::unique(list->begin(), list->end()), list->end());
    }
    for (StorageId s : forwardStale)
        if (!m_pinned[s])
            rebuildRegion(s, true, m_forward[s]);
    for (StorageId s : backwardStale)
        if (!m_pinned[s])
            rebuildRegion(s, false, m_backward[s]);
}

void Replay::updateEqClassesOnEvict(StorageId s)
{
    m_eqNode[s] = m_eq.make(m_compute[s]);
    collectEvictedNeighbours(s);
    for (StorageId n : m_scratch)
        if (m_eqNode[n] != kNone)
            m_eq.merge(m_eqNode[n], m_eqNode[s]);
}

void Replay::updateEqClassesOnCompute()
{
    for (StorageId s : m_rematStorages) {
        const EqClassForest::Node node = m_eqNode[s];
        if (node == kNone)
            continue;
        m_eq.setValue(node, m_eq.value(node) - m_compute[s]);
        m_eqNode[s] = kNone;
    }
}

} // namespace rematlens
