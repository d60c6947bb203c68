#pragma once

#include "material_flags.h"
#include "subset_sums.h"
#include "region.h"

#include <algorithm>
#include <vector>

namespace rematlens {

// Many backward searches at once, between two changes of the replay's state (as deferred
// rebuilds are resolved): the regions of neighbouring storages mostly cover the same evicted
// history, so each evicted storage's backward closure (what a search reaches from it) is
// computed once, as a bitmap, and every region is the union of its neighbours' closures.
//
// Backward closures do not depend on when a deferred search was scheduled: an evicted storage
// gains backward edges only when an alias of it is created, and that resolves every deferred
// search first. Only the base's own edges are filtered by the search's visibility.
//
// For the same reason a closure stays what it was while none of the storages it holds (interior
// or frontier) has become material, been evicted or been pinned: most of a batch's closures are
// the previous batch's, so those are carried over instead of searched again.
class BackwardClosures {
public:
    struct Request {
        StorageId base;
        TensorId visibleBelow;
        Region *out;
    };

    BackwardClosures(const Program &program, MaterialFlags &flags, const std::vector<Cost> &compute);

    // Fills every request's region as NeighbourhoodSearch::search(base, backward) would.
    // False, with nothing filled, when the evicted storages met form a cycle (aliases can make
    // one); the caller then searches one by one.
    // Whether bitmaps beat searching one by one for this many requests, judged by the summed
    // size the requested regions had before (their previous contents, about to be replaced).
    bool worthwhile(std::size_t previousSize, std::size_t requests) const;

    // Storages' own edges count once visible below createdNow (every tensor created so far).
    bool searchAll(const std::vector<Request> &requests, TensorId createdNow);

    // The compute of s has changed.
    void computeChanged(StorageId s) { m_sums.changed(s); }
    // s has become material or been evicted, or been pinned: closures holding s are stale.
    void stateChanged(StorageId s)
    {
        if (!m_changed.empty())
            m_changed[s / 64] |= Word{1} << (s % 64);
    }

private:
    using Word = std::uint64_t;
    // Words [low, high) of a pair of bitmaps that may hold a bit: a union touches only those.
    struct Span {
        std::uint32_t low = 0;
        std::uint32_t high = 0;
        void widen(std::uint32_t otherLow, std::uint32_t otherHigh)
        {
            low = high == low ? otherLow : std::min(low, otherLow);
            high = std::max(high, otherHigh);
        }
    };
    struct Closure {
        std::uint32_t offset; // into m_words: the interior's span, then the frontier's
        Span span;
    };
    // Where a union goes: bitmaps holding words [low, ...).
    struct Target {
        Word *interior;
        Word *frontier;
        std::uint32_t low;
    };

    void prepareScratch();
    bool computeClosure(StorageId root, TensorId createdNow);
    bool done(StorageId s) const { return m_batchOf[s] == m_batch && m_state[s] == 2; }
    // Takes s's closure from the previous batch when nothing it holds has changed since.
    bool carry(StorageId s);
    Word *bits(std::uint32_t offset) { return m_words.data() + offset; }
    std::uint32_t allocate(std::uint32_t words);
    // The words merge(u, ...) writes.
    Span spanOf(StorageId u) const;
    void merge(StorageId u, const Target &target);
    void fill(const Request &request);

    const Program &m_program;
    MaterialFlags &m_flags;
    SubsetSums m_sums;
    std::size_t m_wordsPerSet;
    // Closures' bitmaps, each over its span; kept across batches (those of the last batch can be
    // carried into the next) and dropped together when they outgrow kArenaWords.
    static constexpr std::size_t kArenaWords = std::size_t{1} << 16;
    std::vector<Word> m_words;
    bool m_previousComplete = false;           // the previous batch met no cycle
    std::vector<Word> m_changed;               // storages whose state changed since the previous batch
    std::vector<Word> m_interior;              // scratch of fill(), zero between calls
    std::vector<Word> m_frontier;
    std::vector<std::uint32_t> m_closureOf;    // per storage: index into m_closures, valid for m_batchOf
    std::vector<std::uint32_t> m_batchOf;
    std::vector<std::uint8_t> m_state;         // 1 in progress, 2 done (for m_batch)
    std::vector<Closure> m_closures;
    std::vector<std::pair<StorageId, std::uint32_t>> m_stack; // storage, next edge
    std::uint32_t m_batch = 0;
};

} // namespace rematlens
