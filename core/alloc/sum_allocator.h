#pragma once

#include "allocator.h"
#include "slot_vector.h"

namespace rematlens {

// simrd's accounting as an allocator: every live byte counts once, with no rounding, no
// addresses and no fragmentation. The replay does not call it (it keeps its own byte counter for
// the sum model); it is the reference the other models are tested against.
class SumAllocator final : public Allocator {
public:
    explicit SumAllocator(Bytes capacity) : m_capacity(capacity) {}

    std::optional<BlockHandle> allocate(Bytes n) override;
    void free(BlockHandle block) override;
    std::unique_ptr<Allocator> clone() const override { return std::make_unique<SumAllocator>(*this); }
    Bytes roundedSize(Bytes n) const override { return n; }
    Bytes capacity() const override { return m_capacity; }
    Bytes largestFixedFreeBlock() const override { return 0; }
    std::optional<Bytes> freeTailFrom() const override { return allocated(); }
    void setCapacity(Bytes capacity) override { m_capacity = capacity; }
    bool sameState(const Allocator &other) const override { return allocated() == other.allocated(); }
    BlockPlace placeOf(BlockHandle) const override { return {}; }
    std::vector<SegmentView> layout() const override { return {}; }
    std::string bookkeepingProblem() const override { return {}; }

private:
    Bytes m_capacity;
    SlotVector<Bytes> m_sizes;
};

} // namespace rematlens
