#pragma once

#include "material_flags.h"
#include "region.h"
#include "replay_graph.h"
#include "stamp_set.h"

#include <vector>

namespace rematlens {

// Searches of the evicted neighbourhood of a storage, as simrd's Region.rebuild does them:
// from a material base through evicted storages only, collecting the evicted storages reached
// (interior, compute summed) and the material ones where the search stops (frontier).
class NeighbourhoodSearch {
public:
    NeighbourhoodSearch(const Program &program, const ReplayGraph &graph, MaterialFlags &flags,
                        const std::vector<Cost> &compute);

    // The search over the edges visible to tensors below `visibleBelow` (the graph as it was
    // when that many tensors existed; the banishing runtime's edited graph is always current).
    void search(StorageId base, bool forward, TensorId visibleBelow, Region &out);

    // Evicted storages adjacent to s (either direction), each once: simrd's evicted_neighbors.
    const std::vector<StorageId> &evictedNeighbours(StorageId s);

    // The storages next to s in one direction, through the program's storage-level edges
    // visible now, or tensor by tensor when banishing edits the graph.
    template <typename Visit>
    void forEachNeighbour(StorageId s, bool forward, Visit &&visit) const
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

private:
    void prepareScratch();
    void searchStorageEdges(StorageId base, bool forward, TensorId visibleBelow, Region &out);
    void searchTensorWise(StorageId base, bool forward, Region &out);

    const Program &m_program;
    const ReplayGraph &m_graph;
    MaterialFlags &m_flags;
    const std::vector<Cost> &m_compute;
    std::vector<StorageId> m_interior; // scratch: each storage lands at most once
    std::vector<StorageId> m_frontier;
    std::vector<StorageId> m_neighbours;
    std::vector<StorageId> m_work; // scratch of searchTensorWise
    StampSet m_marks;
};

} // namespace rematlens
