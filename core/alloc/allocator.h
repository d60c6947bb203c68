#pragma once

#include "../trace/program.h"
#include "capacity_figures.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rematlens {

using BlockHandle = std::uint32_t;

// One block as a layout check or a view sees it: a sub-range of a segment.
struct BlockView {
    Bytes address = 0;
    Bytes size = 0;
    enum class State : std::uint8_t { Allocated, Free, Unmapped } state = State::Free;
    BlockHandle handle = kNone; // what allocate returned, for an allocated block
};

// Which requests a segment's free blocks may serve: the caching allocator keeps requests up to
// 1 MiB (small) and larger ones (large) apart; an arena serves any.
enum class SegmentPool : std::uint8_t { Arena, Small, Large };

inline std::string_view segmentPoolName(SegmentPool pool)
{
    return pool == SegmentPool::Small ? "small" : pool == SegmentPool::Large ? "large" : "arena";
}

// One segment (a device allocation, or an expandable segment's virtual range, or the arena),
// covered without gaps by its blocks in address order.
struct SegmentView {
    Bytes base = 0;
    Bytes size = 0;
    std::vector<BlockView> blocks;
    SegmentPool pool = SegmentPool::Arena;
};

// A device memory allocator as the replay sees it: requests of n bytes get a block or fail,
// blocks are freed one by one. Models are deterministic: the same sequence of calls gives the
// same addresses.
class Allocator {
public:
    virtual ~Allocator() = default;

    // A block for n > 0 bytes, or nothing when the model cannot place it within its capacity
    // (after whatever release-and-retry the model does on its own).
    virtual std::optional<BlockHandle> allocate(Bytes n) = 0;
    virtual void free(BlockHandle block) = 0;
    virtual std::unique_ptr<Allocator> clone() const = 0;

    // The size a request of n bytes occupies once rounded by the model.
    virtual Bytes roundedSize(Bytes n) const = 0;
    virtual Bytes capacity() const = 0;
    Bytes allocated() const { return m_allocated; }
    Bytes reserved() const { return m_reserved; }
    Bytes peakAllocated() const { return m_peakAllocated; }
    Bytes peakReserved() const { return m_peakReserved; }
    // The highest allocated and reserved bytes since the window last restarted, and how many
    // times either changed: a recorder samples these so transient peaks inside one operator
    // still reach its timeline.
    Bytes windowPeakAllocated() const { return m_windowPeakAllocated; }
    Bytes windowPeakReserved() const { return m_windowPeakReserved; }
    std::uint64_t changes() const { return m_changes; }
    void restartWindow()
    {
        m_windowPeakAllocated = m_allocated;
        m_windowPeakReserved = m_reserved;
    }
    // The same for one stretch of a replay between two of its waypoints, so a replay that takes
    // over another's path folds the peaks of the stretches it went through.
    Bytes stretchPeakAllocated() const { return m_stretchPeakAllocated; }
    Bytes stretchPeakReserved() const { return m_stretchPeakReserved; }
    void restartStretch()
    {
        m_stretchPeakAllocated = m_allocated;
        m_stretchPeakReserved = m_reserved;
    }
    // Whatever the capacity, the two decide alike from here on: the same segments in the same
    // order with the same blocks at the same offsets, allocated or free, and the same counters.
    // Where the segments lie does not matter, only their order (ties go to the lower address);
    // peaks and flushes are history, not state.
    virtual bool sameState(const Allocator &other) const = 0;
    // Where a block handed out by allocate lies: its segment's place among the live segments
    // in address order, and its offset in that segment.
    struct BlockPlace {
        std::uint32_t segment = 0;
        Bytes offset = 0;
        bool operator==(const BlockPlace &) const = default;
    };
    virtual BlockPlace placeOf(BlockHandle block) const = 0;
    // The largest request that could be placed now without releasing anything.
    Bytes largestFreeBlock() const { return capacityFigures(0).largestFreeBlockUnder(capacity()); }
    // What a failure's bytes short (for a request that makes allocated bytes `demand`) and the
    // largest free block are made of, to restate them under another capacity.
    CapacityFigures capacityFigures(Bytes demand) const
    {
        return CapacityFigures{demand, largestFixedFreeBlock(), freeTailFrom(), capacityUnit()};
    }

    // The parts of largestFreeBlock: the largest free block whose size does not move with the
    // capacity, and where the free space that runs up to the capacity starts (none when the
    // model has no such space), so the figure can be restated under another capacity.
    virtual Bytes largestFixedFreeBlock() const = 0;
    virtual std::optional<Bytes> freeTailFrom() const = 0;
    // Capacities the model uses are multiples of this (the arena rounds down to its alignment).
    virtual Bytes capacityUnit() const { return 1; }

    // Where the capacity is the budget (on-failure eviction), every decision that reads it
    // compares it with a demand the history has fixed: a new segment's reserved bytes, a block's
    // end in the arena. fitsCapacity makes such a comparison and records it; the bounds are the
    // largest demand that fitted and the smallest that did not since the last take, so a replay
    // knows the interval of budgets that decide alike.
    struct CapacityBounds {
        Bytes largestFitted = 0;
        Bytes smallestOver = std::numeric_limits<Bytes>::max();
    };
    bool fitsCapacity(Bytes demand)
    {
        if (demand <= capacity()) {
            m_bounds.largestFitted = std::max(m_bounds.largestFitted, demand);
            return true;
        }
        m_bounds.smallestOver = std::min(m_bounds.smallestOver, demand);
        return false;
    }
    CapacityBounds takeCapacityBounds() { return std::exchange(m_bounds, CapacityBounds{}); }
    // The same history under another capacity that its recorded comparisons leave unchanged
    // (a copy the exact map continues under a neighbouring budget).
    virtual void setCapacity(Bytes capacity) = 0;

    // The segment a request of `rounded` bytes asks the device for when no free block holds it;
    // nothing for a model that never grows (the arena).
    virtual std::optional<Bytes> newSegmentSize(Bytes /*rounded*/) const { return std::nullopt; }
    // The pool whose free blocks may serve a request of `rounded` bytes.
    virtual SegmentPool poolFor(Bytes /*rounded*/) const { return SegmentPool::Arena; }

    // Misses that released cached memory to retry (PyTorch's num_alloc_retries); 0 for models
    // without a cache.
    virtual std::int64_t cacheFlushes() const { return 0; }

    virtual std::vector<SegmentView> layout() const = 0;
    // Empty when the model's own bookkeeping is consistent, else what is wrong.
    virtual std::string bookkeepingProblem() const = 0;

protected:
    void addAllocated(Bytes delta)
    {
        m_allocated += delta;
        ++m_changes;
        m_peakAllocated = std::max(m_peakAllocated, m_allocated);
        m_windowPeakAllocated = std::max(m_windowPeakAllocated, m_allocated);
        m_stretchPeakAllocated = std::max(m_stretchPeakAllocated, m_allocated);
    }
    void addReserved(Bytes delta)
    {
        m_reserved += delta;
        ++m_changes;
        m_peakReserved = std::max(m_peakReserved, m_reserved);
        m_windowPeakReserved = std::max(m_windowPeakReserved, m_reserved);
        m_stretchPeakReserved = std::max(m_stretchPeakReserved, m_reserved);
    }

private:
    CapacityBounds m_bounds;
    Bytes m_allocated = 0;
    Bytes m_reserved = 0;
    Bytes m_peakAllocated = 0;
    Bytes m_peakReserved = 0;
    Bytes m_windowPeakAllocated = 0;
    Bytes m_windowPeakReserved = 0;
    Bytes m_stretchPeakAllocated = 0;
    Bytes m_stretchPeakReserved = 0;
    std::uint64_t m_changes = 0;
};

} // namespace rematlens
