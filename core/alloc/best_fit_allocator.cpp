#include "best_fit_allocator.h"

#include <algorithm>
#include <limits>

namespace rematlens {

BestFitAllocator::BestFitAllocator(Bytes capacity)
    : m_capacity(capacity / kAlignment * kAlignment)
{
    m_blocks.add(Block{0, m_capacity, kNone, kNone, false});
    if (m_capacity > 0)
        insertFree(0);
}

std::optional<BlockHandle> BestFitAllocator::allocate(Bytes n)
{
    const Bytes s = roundedSize(n);
    auto it = m_free.lower_bound(FreeKey{s, std::numeric_limits<Bytes>::min(), 0});
    if (it == m_free.end())
        return std::nullopt;
    const BlockHandle h = it->block;
    eraseFree(h);
    if (m_blocks[h].size > s) {
        Block high = m_blocks[h];
        high.address += s;
        high.size -= s;
        high.prev = h;
        const BlockHandle r = m_blocks.add(high);
        if (m_blocks[h].next != kNone)
            m_blocks[m_blocks[h].next].prev = r;
        m_blocks[h].next = r;
        m_blocks[h].size = s;
        insertFree(r);
    }
    Block &b = m_blocks[h];
    b.allocated = true;
    addAllocated(s);
    const Bytes end = b.address + s;
    if (end > reserved())
        addReserved(end - reserved());
    return h;
}

void BestFitAllocator::free(BlockHandle h)
{
    Block &b = m_blocks[h];
    b.allocated = false;
    addAllocated(-b.size);
    BlockHandle merged = h;
    const BlockHandle next = m_blocks[h].next;
    if (next != kNone && !m_blocks[next].allocated) {
        eraseFree(next);
        absorbNext(h);
    }
    const BlockHandle prev = m_blocks[h].prev;
    if (prev != kNone && !m_blocks[prev].allocated) {
        eraseFree(prev);
        absorbNext(prev);
        merged = prev;
    }
    insertFree(merged);
    // The high-water mark is what the arena has used so far; it never goes down.
}

void BestFitAllocator::absorbNext(BlockHandle h)
{
    Block &b = m_blocks[h];
    const BlockHandle next = b.next;
    b.size += m_blocks[next].size;
    b.next = m_blocks[next].next;
    if (b.next != kNone)
        m_blocks[b.next].prev = h;
    m_blocks[next].size = 0;
    m_blocks.release(next);
}

void BestFitAllocator::insertFree(BlockHandle h)
{
    m_free.insert(FreeKey{m_blocks[h].size, m_blocks[h].address, h});
}

void BestFitAllocator::eraseFree(BlockHandle h)
{
    m_free.erase(FreeKey{m_blocks[h].size, m_blocks[h].address, h});
}

Bytes BestFitAllocator::largestFreeBlock() const
{
    return m_free.empty() ? 0 : m_free.rbegin()->size;
}

std::vector<SegmentView> BestFitAllocator::layout() const
{
    SegmentView arena{0, m_capacity, {}};
    for (BlockHandle h = m_first; h != kNone; h = m_blocks[h].next) {
        const Block &b = m_blocks[h];
        if (b.size > 0)
            arena.blocks.push_back(
                BlockView{b.address, b.size, b.allocated ? BlockView::State::Allocated : BlockView::State::Free,
                          b.allocated ? h : kNone});
    }
    return {arena};
}

std::string BestFitAllocator::bookkeepingProblem() const
{
    std::size_t freeBlocks = 0;
    BlockHandle prev = kNone;
    Bytes highest = 0;
    for (BlockHandle h = m_first; h != kNone; prev = h, h = m_blocks[h].next) {
        const Block &b = m_blocks[h];
        if (b.prev != prev)
            return "arena block links are inconsistent";
        if (b.allocated)
            highest = std::max(highest, b.address + b.size);
        else if (b.size > 0) {
            ++freeBlocks;
            if (!m_free.contains(FreeKey{b.size, b.address, h}))
                return "free block at " + std::to_string(b.address) + " is missing from the free set";
        }
    }
    if (freeBlocks != m_free.size())
        return "the free set holds blocks that are not free";
    if (highest > reserved())
        return "an allocated block ends above the high-water mark";
    return {};
}

} // namespace rematlens
