#include "neighbourhood_search.h"

namespace rematlens {

NeighbourhoodSearch::NeighbourhoodSearch(const Program &program, const ReplayGraph &graph, MaterialFlags &flags,
                                         const std::vector<Cost> &compute)
    : m_program(program)
    , m_graph(graph)
    , m_flags(flags)
    , m_compute(compute)
{
}

// Sized at the first search, not at construction: most copies of a replay (the map walker's
// copies along its path) never search, and most policies never search with this one.
void NeighbourhoodSearch::prepareScratch()
{
    if (!m_interior.empty())
        return;
    const std::size_t storages = m_program.storages.size();
    m_interior.resize(storages + 1);
    m_frontier.resize(storages + 1);
    m_marks.grow(storages);
}

void NeighbourhoodSearch::search(StorageId base, bool forward, TensorId visibleBelow, Region &out)
{
    prepareScratch();
    out.clear();
    if (m_graph.editable())
        searchTensorWise(base, forward, out);
    else
        searchStorageEdges(base, forward, visibleBelow, out);
}

// The hot loop of every region-keeping policy: storage-level edges sorted by visibility, one
// packed word per storage to test and mark, and the interior doubling as the work list.
// Pinned storages are left out of the frontier: a frontier only says whose regions to update,
// and a pinned storage's regions are never read again.
void NeighbourhoodSearch::searchStorageEdges(StorageId base, bool forward, TensorId visibleBelow, Region &out)
{
    constexpr std::uint32_t kMaterial = MaterialFlags::kMaterialBit;
    constexpr std::uint32_t kFlags = MaterialFlags::kFlagBits;
    const std::uint32_t stamp = m_flags.nextStamp();
    const std::uint32_t *offsets = (forward ? m_program.forwardEdgeOffsets : m_program.backwardEdgeOffsets).data();
    const StorageEdge *edges = (forward ? m_program.forwardEdges : m_program.backwardEdges).data();
    std::uint32_t *words = m_flags.words();
    const Cost *compute = m_compute.data();
    StorageId *interior = m_interior.data();
    StorageId *frontier = m_frontier.data();
    std::size_t interiorCount = 0;
    std::size_t frontierCount = 0;
    Cost total = 0;
    words[base] = (words[base] & kFlags) | stamp; // the base is never its own frontier
    StorageId x = base;
    for (std::size_t next = 0;; x = interior[next++]) {
        for (const StorageEdge *e = edges + offsets[x], *end = edges + offsets[x + 1]; e != end; ++e) {
            if (e->visibleFrom >= visibleBelow)
                break;
            const StorageId us = e->storage;
            const std::uint32_t word = words[us];
            if ((word & MaterialFlags::kStampMask) == stamp)
                continue;
            words[us] = (word & kFlags) | stamp;
            if (word & kMaterial) {
                frontier[frontierCount] = us;
                frontierCount += (word & MaterialFlags::kPinnedBit) ? 0 : 1;
            } else {
                total += compute[us];
                interior[interiorCount++] = us;
            }
        }
        if (next == interiorCount)
            break;
    }
    out.interiorFor(m_program.storages.size()).assign(interior, interior + interiorCount);
    out.frontierFor(m_program.storages.size()).assign(frontier, frontier + frontierCount);
    out.compute = total;
}

void NeighbourhoodSearch::searchTensorWise(StorageId base, bool forward, Region &out)
{
    m_marks.clear();
    std::vector<StorageId> &interior = m_work; // doubles as the work list
    interior.clear();
    for (std::size_t next = 0;; ++next) {
        const StorageId x = next == 0 ? base : interior[next - 1];
        forEachNeighbour(x, forward, [&](StorageId us) {
            if (m_flags.material(us)) {
                if (us != base)
                    out.frontierFor(m_program.storages.size()).insert(us);
            } else if (m_marks.insert(us)) {
                out.compute += m_compute[us];
                interior.push_back(us);
            }
        });
        if (next == interior.size())
            break;
    }
    out.interiorFor(m_program.storages.size()).assign(interior.data(), interior.data() + interior.size());
}

const std::vector<StorageId> &NeighbourhoodSearch::evictedNeighbours(StorageId s)
{
    prepareScratch();
    m_neighbours.clear();
    m_marks.clear();
    auto visit = [&](StorageId us) {
        if (!m_flags.material(us) && us != s && m_marks.insert(us))
            m_neighbours.push_back(us);
    };
    forEachNeighbour(s, false, visit);
    forEachNeighbour(s, true, visit);
    return m_neighbours;
}

} // namespace rematlens
