#pragma once

#include "allocator.h"
#include "allocator_config.h"
#include "free_block_set.h"
#include "slot_vector.h"

#include <array>

namespace rematlens {

// PyTorch's CUDA caching allocator (c10/cuda/CUDACachingAllocator.cpp) on one stream, as the
// allocator model specification restates it: 512-byte rounding, a small pool (requests up to
// 1 MiB, 2 MiB segments) and a large pool (20 MiB segments below 10 MiB, else the request rounded
// to 2 MiB), best fit by size then address, splitting, coalescing, and on a miss a new segment,
// then release of whole cached segments and one retry. A segment is granted while reserved plus
// its size stays within the capacity (PyTorch's per-process memory fraction). Segments get
// addresses from a bump pointer that never reuses a range, so the oldest segment is lowest.
class CachingAllocator final : public Allocator {
public:
    static constexpr Bytes kMinBlockSize = 512;
    static constexpr Bytes kSmallSize = Bytes{1} << 20;
    static constexpr Bytes kSmallBuffer = Bytes{2} << 20;
    static constexpr Bytes kMinLargeAlloc = Bytes{10} << 20;
    static constexpr Bytes kLargeBuffer = Bytes{20} << 20;
    static constexpr Bytes kRoundLarge = Bytes{2} << 20;

    CachingAllocator(Bytes capacity, const CachingOptions &options);

    std::optional<BlockHandle> allocate(Bytes n) override;
    void free(BlockHandle block) override;
    std::unique_ptr<Allocator> clone() const override { return std::make_unique<CachingAllocator>(*this); }
    Bytes roundedSize(Bytes n) const override;
    Bytes capacity() const override { return m_capacity; }
    Bytes largestFixedFreeBlock() const override;
    // What is not reserved yet can still become a segment.
    std::optional<Bytes> freeTailFrom() const override { return reserved(); }
    void setCapacity(Bytes capacity) override { m_capacity = capacity; }
    bool sameState(const Allocator &other) const override;
    BlockPlace placeOf(BlockHandle block) const override;
    std::vector<SegmentView> layout() const override;
    std::string bookkeepingProblem() const override;

    // torch.cuda.empty_cache(): returns every cached segment that holds no allocated block
    // (in expandable mode, every whole page of free memory).
    void releaseCachedBlocks();
    // How often a miss flushed the cache to retry (PyTorch's num_alloc_retries).
    std::int64_t cacheFlushes() const override { return m_cacheFlushes; }
    // The segment size a request of n bytes asks for on a miss.
    static Bytes segmentSize(Bytes rounded);
    std::optional<Bytes> newSegmentSize(Bytes rounded) const override { return segmentSize(rounded); }
    SegmentPool poolFor(Bytes rounded) const override
    {
        return poolOf(rounded) == Small ? SegmentPool::Small : SegmentPool::Large;
    }

private:
    enum Pool : std::uint8_t { Small = 0, Large = 1 };
    struct Block {
        Bytes address = 0;
        Bytes size = 0;
        BlockHandle prev = kNone;
        BlockHandle next = kNone;
        std::uint32_t segment = 0;
        bool allocated = false;
        bool mapped = true; // false only for unmapped ranges of expandable segments
    };
    struct Segment {
        Bytes base = 0;
        Bytes size = 0;
        BlockHandle first = kNone;
        Pool pool = Small;
        bool expandable = false;
        bool alive = true;
    };
    using FreeKey = FreeBlockKey;
    using FreeSet = FreeBlockSet;

    static Pool poolOf(Bytes rounded) { return rounded <= kSmallSize ? Small : Large; }
    Bytes pageSize(Pool pool) const { return pool == Small ? kSmallBuffer : kLargeBuffer; }
    bool whole(const Block &b) const { return b.prev == kNone && b.next == kNone && !m_segments[b.segment].expandable; }

    BlockHandle newBlock(const Block &block) { return m_blocks.add(block); }
    void dropBlock(BlockHandle h);
    void insertFree(BlockHandle h);
    void eraseFree(BlockHandle h);
    BlockHandle splitOff(BlockHandle h, Bytes lowSize); // h keeps the low part; returns the high part
    BlockHandle absorbNext(BlockHandle h);              // merges h's next neighbour into h
    BlockHandle coalesce(BlockHandle h);                // with free mapped neighbours (or unmapped with unmapped)
    bool mergeable(BlockHandle a, BlockHandle b) const;

    std::optional<BlockHandle> lookup(Bytes s, Pool pool);
    std::optional<BlockHandle> newMemory(Bytes s, Pool pool);
    std::optional<BlockHandle> newSegment(Bytes s, Pool pool);
    std::optional<BlockHandle> mapExpandable(Bytes s, Pool pool);
    std::uint32_t expandableSegment(Pool pool);
    bool releaseAvailableCachedBlocks(Bytes s, Pool pool);
    void releaseSegment(BlockHandle wholeBlock);
    void unmapFreePages(BlockHandle h);
    BlockHandle handOut(BlockHandle h, Bytes s);

    Bytes m_capacity;
    CachingOptions m_options;
    SlotVector<Block> m_blocks;
    std::vector<Segment> m_segments;
    std::array<FreeSet, 2> m_free;
    std::array<std::uint32_t, 2> m_expandable{kNone, kNone};
    std::int64_t m_wholeFreeSegments = 0; // free blocks that are a whole (non-expandable) segment
    std::int64_t m_cacheFlushes = 0;
    Bytes m_nextAddress = 0;
};

} // namespace rematlens
