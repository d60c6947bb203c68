#pragma once

#include "material_flags.h"
#include "neighbourhood_search.h"
#include "region_book.h"
#include "replay_graph.h"

#include <vector>

namespace rematlens {

// simrd's region bookkeeping (RegionBook), run only when its regions are read, that is when a
// victim is chosen. Every change of what the book reads (which storages are material or pinned,
// their compute) and every call to the book is written down in order, and played back against
// the book's own copy of that state at the next read. The results are the book's own; what a
// replay saves is the bookkeeping after its last victim choice, which for most budgets of the
// recurrent traces is nine tenths of the run (nothing is read after the first evictions at the
// end of the forward pass). Under the banishing runtime the searches walk a graph the replay
// edits as it goes, so there the book keeps up at once; so it does under simrd's literal
// rebuild schedule (deferRebuilds off), the reference the tests compare with.
//
// With acrossChoices (see RegionBook) a choice need not resolve every rebuild: playBack() brings
// the book up to date but for its pending rebuilds, the caller resolves those it reads.
class LazyRegions {
public:
    LazyRegions(const Program &program, const ReplayGraph &graph, bool deferRebuilds, bool acrossChoices,
                RegionBook::Buffers recycled);
    // A copy of other, state and record included, bound to another replay's graph.
    LazyRegions(const LazyRegions &other, const ReplayGraph &graph);
    LazyRegions &operator=(const LazyRegions &) = delete;

    // What the book reads, as it changes.
    void setMaterial(StorageId s, bool on) { append({on ? Kind::Materialized : Kind::Dematerialized, s, 0, 0}); }
    void setPinned(StorageId s) { append({Kind::Pinned, s, 0, 0}); }
    void addCompute(StorageId s, Cost delta) { append({Kind::Compute, s, 0, delta}); }

    // The book's calls (see RegionBook), as the replay makes them.
    void computed(const std::vector<StorageId> &storages, TensorId now);
    // s is about to be evicted (it is still material), then has been.
    void evicting(StorageId s, TensorId now) { append({Kind::Evicting, s, 0, now}); }
    void evicted(StorageId s) { append({Kind::Evicted, s, 0, 0}); }
    void resolvePending(TensorId now) { append({Kind::Resolve, 0, 0, now}); }

    // Plays back everything written down and resolves every rebuild: forward() and backward()
    // are then the book's, until the next change.
    void catchUp(TensorId now);
    // Plays back everything written down, leaving rebuilds pending: then forward(s) and
    // backward(s) are the book's where !pending(s, direction).
    void playBack();
    bool acrossChoices() const { return m_book.acrossChoices(); }
    bool pending(StorageId s, bool forward) const { return m_book.pending(s, forward); }
    // Resolves s's pending region in that direction with the next resolveSelected().
    void select(StorageId s, bool forward) { m_book.select(s, forward); }
    void resolveSelected(TensorId now) { m_book.resolveSelected(now); }
    // Nothing written down or deferred: forward() and backward() are the book's.
    bool caughtUp() const { return m_record.empty() && !m_book.hasPending(); }
    const Region &forward(StorageId s) const { return m_book.forward(s); }
    const Region &backward(StorageId s) const { return m_book.backward(s); }
    // Both of s's regions are the same as other's (both caught up).
    bool sameRegions(StorageId s, const LazyRegions &other) const { return m_book.sameRegions(s, other.m_book); }

    // The regions' buffers, for the next replay of the same program; this one is spent.
    RegionBook::Buffers releaseBuffers() { return m_book.releaseBuffers(); }

private:
    enum class Kind : std::uint8_t { Materialized, Dematerialized, Pinned, Compute, Computed, Evicting, Evicted, Resolve };
    // Computed: storages [storage, storage + count) of m_computedStorages, value = now.
    // Compute: value = delta. Evicting, Resolve: value = now.
    struct Entry {
        Kind kind;
        std::uint32_t storage;
        std::uint32_t count;
        Cost value;
    };

    void append(const Entry &entry);
    void apply(const Entry &entry);

    const Program &m_program;
    MaterialFlags m_flags;
    std::vector<Cost> m_compute;
    NeighbourhoodSearch m_search;
    RegionBook m_book;
    bool m_lazy;
    std::vector<Entry> m_record;
    std::vector<StorageId> m_computedStorages; // of the Computed entries
};

} // namespace rematlens
