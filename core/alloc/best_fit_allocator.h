#pragma once

#include "allocator.h"
#include "free_block_set.h"
#include "slot_vector.h"

namespace rematlens {

// One arena of exactly the capacity, as Coop (OneFlow's rematerialization allocator) and TF's
// BFC without growth use: requests aligned to 512 bytes, best fit by size then address, the
// allocation at the low end of the free block it splits, both free neighbours merged on free.
// Reserved is the arena's high-water mark: the bytes below the highest end ever allocated.
// The last block is always the tail: the free space from the last allocated block up to the
// capacity, possibly empty. It stays out of the free set because its size moves with the
// capacity; a lookup compares it with the capacity instead (fitsCapacity), so a replay knows
// which budgets place alike.
class BestFitAllocator final : public Allocator {
public:
    static constexpr Bytes kAlignment = 512;

    explicit BestFitAllocator(Bytes capacity);

    std::optional<BlockHandle> allocate(Bytes n) override;
    void free(BlockHandle block) override;
    std::unique_ptr<Allocator> clone() const override { return std::make_unique<BestFitAllocator>(*this); }
    Bytes roundedSize(Bytes n) const override { return (n + kAlignment - 1) / kAlignment * kAlignment; }
    Bytes capacity() const override { return m_capacity; }
    Bytes largestFixedFreeBlock() const override;
    std::optional<Bytes> freeTailFrom() const override { return m_blocks[m_tail].address; }
    Bytes capacityUnit() const override { return kAlignment; }
    void setCapacity(Bytes capacity) override;
    bool sameState(const Allocator &other) const override;
    BlockPlace placeOf(BlockHandle block) const override { return {0, m_blocks[block].address}; }
    std::vector<SegmentView> layout() const override;
    std::string bookkeepingProblem() const override;

private:
    struct Block {
        Bytes address = 0;
        Bytes size = 0;
        BlockHandle prev = kNone;
        BlockHandle next = kNone;
        bool allocated = false;
    };
    using FreeKey = FreeBlockKey;

    // Best fit among the free blocks and the tail: the smallest that holds s, the lowest address
    // among equals (so the tail, highest of all, wins only when strictly smaller).
    std::optional<BlockHandle> bestFit(Bytes s);
    BlockHandle splitOff(BlockHandle h, Bytes lowSize); // h keeps the low part; returns the high part
    void insertFree(BlockHandle h);
    void eraseFree(BlockHandle h);
    void absorbNext(BlockHandle h);

    Bytes m_capacity;
    SlotVector<Block> m_blocks;
    FreeBlockSet m_free;
    BlockHandle m_first = 0;
    BlockHandle m_tail = 0;
};

} // namespace rematlens
