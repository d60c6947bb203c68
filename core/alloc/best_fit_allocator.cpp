#include "best_fit_allocator.h"

#include <algorithm>
#include <limits>

namespace rematlens {

BestFitAllocator::BestFitAllocator(Bytes capacity) : m_capacity(capacity / kAlignment * kAlignment)
{
    m_blocks.add(Block{0, m_capacity, kNone, kNone, false});
}

void BestFitAllocator::setCapacity(Bytes capacity)
{
    m_capacity = capacity / kAlignment * kAlignment;
    m_blocks[m_tail].size = m_capacity - m_blocks[m_tail].address;
}

// Block by block in address order; the tail's size is the capacity's, so only where it starts.
bool BestFitAllocator::sameState(const Allocator &other) const
{
    const auto *arena = dynamic_cast<const BestFitAllocator *>(&other);
    if (!arena || allocated() != other.allocated() || reserved() != other.reserved() ||
        m_free.size() != arena->m_free.size())
        return false;
    BlockHandle a = m_first;
    BlockHandle b = arena->m_first;
    for (; a != m_tail && b != arena->m_tail; a = m_blocks[a].next, b = arena->m_blocks[b].next) {
        const Block &x = m_blocks[a];
        const Block &y = arena->m_blocks[b];
        if (x.address != y.address || x.size != y.size || x.allocated != y.allocated)
            return false;
    }
    return a == m_tail && b == arena->m_tail && m_blocks[a].address == arena->m_blocks[b].address;
}

std::optional<BlockHandle> BestFitAllocator::bestFit(Bytes s)
{
    const auto it = m_free.lower_bound(FreeKey{s, std::numeric_limits<Bytes>::min(), 0});
    const Bytes tailFrom = m_blocks[m_tail].address;
    // The tail holds s when its end, the capacity, is at least tailFrom + s; it is smaller than
    // the best free block of size m when the capacity is below tailFrom + m.
    if (fitsCapacity(tailFrom + s) && (it == m_free.end() || !fitsCapacity(tailFrom + it->size)))
        return m_tail;
    if (it == m_free.end())
        return std::nullopt;
    const BlockHandle h = it->block;
    eraseFree(h);
    return h;
}

std::optional<BlockHandle> BestFitAllocator::allocate(Bytes n)
{
    const Bytes s = roundedSize(n);
    const std::optional<BlockHandle> found = bestFit(s);
    if (!found)
        return std::nullopt;
    const BlockHandle h = *found;
    if (h == m_tail)
        m_tail = splitOff(h, s); // the rest, however small, is the new tail
    else if (m_blocks[h].size > s)
        insertFree(splitOff(h, s));
    Block &b = m_blocks[h];
    b.allocated = true;
    addAllocated(s);
    const Bytes end = b.address + s;
    if (end > reserved())
        addReserved(end - reserved());
    return h;
}

BlockHandle BestFitAllocator::splitOff(BlockHandle h, Bytes lowSize)
{
    Block high = m_blocks[h];
    high.address += lowSize;
    high.size -= lowSize;
    high.prev = h;
    const BlockHandle r = m_blocks.add(high); // may move m_blocks
    if (m_blocks[h].next != kNone)
        m_blocks[m_blocks[h].next].prev = r;
    m_blocks[h].next = r;
    m_blocks[h].size = lowSize;
    return r;
}

void BestFitAllocator::free(BlockHandle h)
{
    Block &b = m_blocks[h];
    b.allocated = false;
    addAllocated(-b.size);
    BlockHandle merged = h;
    const BlockHandle next = m_blocks[h].next;
    if (next == m_tail) {
        absorbNext(h);
        m_tail = h;
    } else if (!m_blocks[next].allocated) {
        eraseFree(next);
        absorbNext(h);
    }
    const BlockHandle prev = m_blocks[h].prev;
    if (prev != kNone && !m_blocks[prev].allocated) {
        eraseFree(prev);
        absorbNext(prev);
        merged = prev;
        if (m_tail == h)
            m_tail = prev;
    }
    if (merged != m_tail)
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

Bytes BestFitAllocator::largestFixedFreeBlock() const
{
    return m_free.empty() ? 0 : m_free.rbegin()->size;
}

std::vector<SegmentView> BestFitAllocator::layout() const
{
    SegmentView arena{0, m_capacity, {}};
    for (BlockHandle h = m_first; h != kNone; h = m_blocks[h].next) {
        const Block &b = m_blocks[h];
        if (b.size > 0)
            arena.blocks.push_back(BlockView{b.address, b.size,
                                             b.allocated ? BlockView::State::Allocated : BlockView::State::Free,
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
        if (h == m_tail) {
            if (b.allocated || b.next != kNone || b.address + b.size != m_capacity)
                return "the tail is not the free space up to the capacity";
        } else if (b.allocated) {
            highest = std::max(highest, b.address + b.size);
        } else {
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
