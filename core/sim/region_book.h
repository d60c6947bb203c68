#pragma once

#include "backward_closures.h"
#include "neighbourhood_search.h"
#include "region.h"
#include "region_table.h"
#include "shared_backward_search.h"

#include <array>
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
//
// With acrossChoices, rebuilds also outlive choices of victims and evictions: a choice resolves
// only the regions whose storages could win it (the caller's select()), an eviction only the
// victim's own; an eviction that simrd absorbs into a pending region is queued on it, with the
// victim's region and computes as they were. A pending search then runs against the graph as
// it was when scheduled, the queued victims counted material again: a material storage that a
// pending search touches has the search's base on its own regions' frontier (each eviction on
// the path between them, or either one's computation, put it there), so its eviction is
// queued on that region; and a touched evicted storage that becomes material reschedules it,
// as above. simrd's rebuild at a reschedule or computation drops the queue with the search.
class RegionBook {
public:
    // The regions of a finished book, whose buffers a new book of the same program can reuse:
    // consecutive replays then rarely allocate.
    struct Buffers {
        RegionTable forward;
        RegionTable backward;
    };

    RegionBook(const Program &program, const ReplayGraph &graph, NeighbourhoodSearch &search, MaterialFlags &flags,
               const std::vector<Cost> &compute, bool defer, bool acrossChoices, Buffers recycled = {});
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
    bool acrossChoices() const { return m_acrossChoices; }
    // Runs every deferred rebuild, with the tensors created so far.
    void resolvePending(TensorId now);
    // Whether s's region in that direction awaits a rebuild (forward(s) or backward(s) is stale).
    bool pending(StorageId s, bool forward) const { return m_pendingSlot[s][forward ? 0 : 1] != kNone; }
    // Marks s's pending region in that direction to be rebuilt by resolveSelected().
    void select(StorageId s, bool forward);
    void resolveSelected(TensorId now);
    // s is about to be evicted: resolves what evicted(s) reads, s's regions (everything without
    // acrossChoices).
    void evicting(StorageId s, TensorId now);
    // Hands the regions' buffers on; the book is unusable afterwards.
    Buffers releaseBuffers() { return {std::move(m_forward), std::move(m_backward)}; }

private:
    struct Pending {
        StorageId base;
        bool forward;
        TensorId visibleBelow;
        std::vector<std::uint32_t> absorbs; // queued, in order: indices into m_snapshots
    };
    // An evicted storage's region (in one direction) and computes, as absorbs read them when it
    // was evicted.
    struct Snapshot {
        StorageId storage = 0;
        Cost storageCompute = 0;
        Region region;
        std::vector<std::pair<StorageId, Cost>> interiorCompute; // by storage
        std::uint32_t references = 0;
    };

    RegionTable &table(bool forward) { return forward ? m_forward : m_backward; }
    void schedule(StorageId s, bool forward, TensorId visibleBelow);
    // Takes s's pending rebuild in that direction out of m_pending.
    Pending take(StorageId s, bool forward);
    // Drops s's pending rebuild in that direction: simrd's newer one supersedes it.
    void drop(StorageId s, bool forward);
    void release(std::vector<std::uint32_t> &absorbs);
    void rebuild(std::vector<Pending> &rebuilds, TensorId now);
    void search(const std::vector<Pending *> &group, TensorId now);
    // The storages whose evictions are queued on p, in increasing order.
    std::vector<StorageId> victimsOf(const Pending &p) const;
    void setMaterialForAWhile(const std::vector<StorageId> &storages);
    void restoreMaterial();
    void absorbQueued(Pending &p);
    // Absorbs the evicted s into the regions (in that direction) of the storages on `targets`'s frontier.
    void absorbInto(const Region &targets, StorageId s, bool forward);
    std::uint32_t snapshot(StorageId s, const Region &region);

    const Program &m_program;
    const ReplayGraph &m_graph;
    NeighbourhoodSearch &m_search;
    const std::vector<Cost> &m_compute;
    MaterialFlags &m_flags; // made material for a while by setMaterialForAWhile()
    RegionTable m_forward;
    RegionTable m_backward;
    std::vector<Pending> m_pending;
    // Per storage and direction (forward first, side by side for the scans that read both):
    // index into m_pending, or kNone.
    std::vector<std::array<std::uint32_t, 2>> m_pendingSlot;
    BackwardClosures m_closures;
    SharedBackwardSearch m_sharedSearch;
    std::vector<BackwardClosures::Request> m_backwardBatch;
    std::vector<Pending> m_selected; // taken out of m_pending by select()
    std::vector<Snapshot> m_snapshots;
    std::vector<std::uint32_t> m_freeSnapshots;
    // Scratch of rebuild(): rebuilds searched together; those with queued absorbs, by victims;
    // the storages made material for a while, with their flags.
    std::vector<Pending *> m_group;
    std::vector<std::pair<std::vector<StorageId>, Pending *>> m_queued;
    std::vector<std::pair<StorageId, bool>> m_flipped;
    bool m_defer;
    bool m_acrossChoices;
};

} // namespace rematlens
