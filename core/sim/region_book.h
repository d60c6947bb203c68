#pragma once

#include "backward_closures.h"
#include "neighbourhood_search.h"
#include "region.h"
#include "region_table.h"
#include "shared_backward_search.h"

#include <span>
#include <vector>

namespace rematlens {

// simrd's incremental evicted-neighbourhood bookkeeping (RuntimeV2Optimized): every material
// storage keeps a forward and a backward Region; evictions absorb, computations rebuild.
//
// Rebuilds of the regions next to a computed storage are deferred until a region could be
// read (a victim is chosen or a storage is evicted) and then run against the graph as it was
// when simrd ran them. That gives simrd's values exactly: until then no storage such a search
// touches can change without simrd rebuilding that region again itself (a touched evicted
// storage that becomes material has the base on its own frontier; touched material storages
// only change by eviction; new storages are not yet visible; a compute change of an evicted
// storage resolves everything first), and about half of simrd's rebuilds are overwritten
// before anything reads them. The backward searches resolved together share their work
// through BackwardClosures.
class RegionBook {
public:
    // The regions of a finished book, whose buffers a new book of the same program can reuse:
    // consecutive replays then rarely allocate.
    struct Buffers {
        RegionTable forward;
        RegionTable backward;
    };

    RegionBook(const Program &program, const ReplayGraph &graph, NeighbourhoodSearch &search, MaterialFlags &flags,
               const std::vector<Cost> &compute, bool defer, Buffers recycled = {});
    // A copy of other's regions (shared until either book changes one) and pending rebuilds,
    // bound to another replay's state.
    RegionBook(const RegionBook &other, const ReplayGraph &graph, NeighbourhoodSearch &search, MaterialFlags &flags,
               const std::vector<Cost> &compute);

    // Valid once resolvePending() has run since the last change.
    const Region &forward(StorageId s) const { return m_forward[s]; }
    const Region &backward(StorageId s) const { return m_backward[s]; }
    // Both of s's regions are the same in both books.
    bool sameRegions(StorageId s, const RegionBook &other) const
    {
        return m_forward.same(s, other.m_forward) && m_backward.same(s, other.m_backward);
    }

    // The storages one computation just made material; now: the tensors created so far.
    void computed(std::span<const StorageId> storages, TensorId now);
    // s was just evicted; resolvePending() must have run before s stopped being material.
    void evicted(StorageId s);
    // The compute of s has changed.
    void computeChanged(StorageId s) { m_closures.computeChanged(s); }
    // s has become material or been evicted, or been pinned.
    void stateChanged(StorageId s) { m_closures.stateChanged(s); }
    bool hasPending() const { return !m_pending.empty(); }
    // Runs every deferred rebuild, with the tensors created so far.
    void resolvePending(TensorId now);
    // Hands the regions' buffers on; the book is unusable afterwards.
    Buffers releaseBuffers() { return {std::move(m_forward), std::move(m_backward)}; }

private:
    void schedule(StorageId s, bool forward, TensorId visibleBelow);

    struct Pending {
        StorageId base;
        bool forward;
        TensorId visibleBelow;
    };

    const Program &m_program;
    const ReplayGraph &m_graph;
    NeighbourhoodSearch &m_search;
    const std::vector<Cost> &m_compute;
    const MaterialFlags &m_flags;
    RegionTable m_forward;
    RegionTable m_backward;
    std::vector<Pending> m_pending;
    std::vector<std::uint32_t> m_pendingSlot[2]; // per direction: index into m_pending, or kNone
    BackwardClosures m_closures;
    SharedBackwardSearch m_sharedSearch;
    std::vector<BackwardClosures::Request> m_backwardBatch;
    bool m_defer;
};

} // namespace rematlens
