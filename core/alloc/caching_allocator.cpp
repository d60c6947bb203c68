#include "caching_allocator.h"

#include <algorithm>
#include <bit>
#include <limits>

namespace rematlens {

namespace {

// Virtual range of an expandable segment: far more than any device, and a multiple of both pages.
constexpr Bytes kExpandableRange = Bytes{20} << 40;

Bytes roundUp(Bytes n, Bytes unit)
{
    return (n + unit - 1) / unit * unit;
}

} // namespace

CachingAllocator::CachingAllocator(Bytes capacity, const CachingOptions &options)
    : m_capacity(capacity), m_options(options)
{
}

Bytes CachingAllocator::roundedSize(Bytes n) const
{
    if (n < kMinBlockSize)
        return kMinBlockSize;
    const Bytes d = m_options.roundupPower2Divisions;
    if (d > 1 && n > kMinBlockSize * d) {
        const auto u = static_cast<std::uint64_t>(n);
        if (std::has_single_bit(u))
            return n;
        const Bytes power = static_cast<Bytes>(std::bit_floor(u));
        const Bytes step = power / d;
        return step == 0 ? 2 * power : roundUp(n, step);
    }
    return roundUp(n, kMinBlockSize);
}

Bytes CachingAllocator::segmentSize(Bytes rounded)
{
    if (rounded <= kSmallSize)
        return kSmallBuffer;
    if (rounded < kMinLargeAlloc)
        return kLargeBuffer;
    return roundUp(rounded, kRoundLarge);
}

std::optional<BlockHandle> CachingAllocator::allocate(Bytes n)
{
    const Bytes s = roundedSize(n);
    const Pool pool = poolOf(s);
    std::optional<BlockHandle> found = lookup(s, pool);
    if (!found)
        found = newMemory(s, pool);
    if (!found && m_options.maxSplitSize && releaseAvailableCachedBlocks(s, pool))
        found = newMemory(s, pool);
    if (!found) {
        // PyTorch flushes the cache and retries even when that cannot help.
        releaseCachedBlocks();
        ++m_cacheFlushes;
        found = newMemory(s, pool);
    }
    if (!found)
        return std::nullopt;
    return handOut(*found, s);
}

void CachingAllocator::free(BlockHandle h)
{
    Block &b = m_blocks[h];
    b.allocated = false;
    addAllocated(-b.size);
    insertFree(coalesce(h));
}

// Best fit: the smallest free block of the pool that holds s, the lowest address among equals.
std::optional<BlockHandle> CachingAllocator::lookup(Bytes s, Pool pool)
{
    FreeSet &set = m_free[pool];
    auto it = set.lower_bound(FreeKey{s, std::numeric_limits<Bytes>::min(), 0});
    if (it == set.end())
        return std::nullopt;
    if (m_options.maxSplitSize) {
        const Bytes ms = *m_options.maxSplitSize;
        if (s < ms && it->size >= ms)
            return std::nullopt;
        if (s >= ms && it->size >= s + kLargeBuffer)
            return std::nullopt;
    }
    if (m_segments[m_blocks[it->block].segment].expandable) {
        // A block that can grow into unmapped space counts as that much larger.
        const auto expandableSize = [&](const FreeKey &k) {
            const Block &b = m_blocks[k.block];
            return b.size + (b.next != kNone && !m_blocks[b.next].mapped ? m_blocks[b.next].size : 0);
        };
        for (auto next = std::next(it); next != set.end() && expandableSize(*next) < expandableSize(*it); ++next)
            it = next;
    }
    const BlockHandle h = it->block;
    eraseFree(h);
    return h;
}

std::optional<BlockHandle> CachingAllocator::newMemory(Bytes s, Pool pool)
{
    // The pre-check uses the segment size even in expandable mode (PyTorch does).
    if (!fitsCapacity(reserved() + segmentSize(s)))
        return std::nullopt;
    return m_options.expandableSegments ? mapExpandable(s, pool) : newSegment(s, pool);
}

std::optional<BlockHandle> CachingAllocator::newSegment(Bytes s, Pool pool)
{
    const Bytes a = segmentSize(s);
    Segment segment;
    segment.base = m_nextAddress;
    segment.size = a;
    segment.pool = pool;
    m_nextAddress += a;
    const auto index = static_cast<std::uint32_t>(m_segments.size());
    Block block;
    block.address = segment.base;
    block.size = a;
    block.segment = index;
    m_segments.push_back(segment);
    const BlockHandle h = newBlock(block);
    m_segments[index].first = h;
    addReserved(a);
    return h;
}

std::uint32_t CachingAllocator::expandableSegment(Pool pool)
{
    if (m_expandable[pool] != kNone)
        return m_expandable[pool];
    Segment segment;
    segment.base = m_nextAddress;
    segment.size = kExpandableRange;
    segment.pool = pool;
    segment.expandable = true;
    m_nextAddress += kExpandableRange;
    const auto index = static_cast<std::uint32_t>(m_segments.size());
    Block range;
    range.address = segment.base;
    range.size = segment.size;
    range.segment = index;
    range.mapped = false;
    m_segments.push_back(segment);
    m_segments[index].first = newBlock(range);
    m_expandable[pool] = index;
    return index;
}

// The lowest unmapped range that, with the free block before it and the free and unmapped space
// after it, holds s; maps whole pages of it until the merged free block does.
std::optional<BlockHandle> CachingAllocator::mapExpandable(Bytes s, Pool pool)
{
    const Segment &segment = m_segments[expandableSegment(pool)];
    const Bytes page = pageSize(pool);
    BlockHandle start = kNone;
    for (BlockHandle h = segment.first; h != kNone && start == kNone; h = m_blocks[h].next) {
        if (m_blocks[h].mapped)
            continue;
        const BlockHandle prev = m_blocks[h].prev;
        const BlockHandle from = prev != kNone && !m_blocks[prev].allocated ? prev : h;
        Bytes run = 0;
        for (BlockHandle r = from; r != kNone && !m_blocks[r].allocated && run < s; r = m_blocks[r].next)
            run += m_blocks[r].size;
        if (run >= s)
            start = from;
    }
    if (start == kNone)
        return std::nullopt;
    Bytes toMap = 0;
    Bytes covered = 0;
    for (BlockHandle r = start; covered < s; r = m_blocks[r].next) {
        const Bytes take =
            m_blocks[r].mapped ? m_blocks[r].size : std::min(m_blocks[r].size, roundUp(s - covered, page));
        if (!m_blocks[r].mapped)
            toMap += take;
        covered += take;
    }
    if (!fitsCapacity(reserved() + toMap))
        return std::nullopt;
    covered = 0;
    BlockHandle merged = kNone;
    for (BlockHandle r = start; covered < s;) {
        if (m_blocks[r].mapped) {
            eraseFree(r);
        } else {
            const Bytes take = std::min(m_blocks[r].size, roundUp(s - covered, page));
            if (take < m_blocks[r].size)
                splitOff(r, take);
            m_blocks[r].mapped = true;
            addReserved(take);
        }
        covered += m_blocks[r].size;
        if (merged == kNone) {
            merged = r;
            r = m_blocks[r].next;
        } else {
            absorbNext(merged);
            r = m_blocks[merged].next;
        }
    }
    const BlockHandle next = m_blocks[merged].next;
    if (next != kNone && mergeable(merged, next)) {
        eraseFree(next);
        absorbNext(merged);
    }
    return merged;
}

BlockHandle CachingAllocator::handOut(BlockHandle h, Bytes s)
{
    const Bytes remainder = m_blocks[h].size - s;
    bool split = false;
    if (m_segments[m_blocks[h].segment].expandable || poolOf(s) == Small)
        split = remainder >= kMinBlockSize;
    else
        split = (!m_options.maxSplitSize || s < *m_options.maxSplitSize) && remainder > kSmallSize;
    if (split)
        insertFree(splitOff(h, s));
    m_blocks[h].allocated = true;
    addAllocated(m_blocks[h].size);
    return h;
}

bool CachingAllocator::releaseAvailableCachedBlocks(Bytes s, Pool pool)
{
    const Bytes key = std::max(s, *m_options.maxSplitSize);
    FreeSet &set = m_free[pool];
    auto it = set.lower_bound(FreeKey{key, std::numeric_limits<Bytes>::min(), 0});
    if (it != set.end() && whole(m_blocks[it->block])) {
        releaseSegment(it->block);
        return true;
    }
    // No single block is large enough: release oversize blocks from the largest down.
    std::vector<BlockHandle> released;
    Bytes total = 0;
    for (auto r = set.rbegin(); r != set.rend() && total < key && r->size >= *m_options.maxSplitSize; ++r) {
        if (whole(m_blocks[r->block])) {
            released.push_back(r->block);
            total += r->size;
        }
    }
    for (BlockHandle h : released)
        releaseSegment(h);
    return total >= key;
}

void CachingAllocator::releaseCachedBlocks()
{
    for (Pool pool : {Large, Small}) {
        std::vector<BlockHandle> candidates;
        if (m_options.expandableSegments) {
            for (const FreeKey &k : m_free[pool])
                candidates.push_back(k.block);
            for (BlockHandle h : candidates)
                unmapFreePages(h);
        } else if (m_wholeFreeSegments > 0) {
            for (const FreeKey &k : m_free[pool])
                if (whole(m_blocks[k.block]))
                    candidates.push_back(k.block);
            for (BlockHandle h : candidates)
                releaseSegment(h);
        }
    }
}

void CachingAllocator::releaseSegment(BlockHandle h)
{
    eraseFree(h);
    Segment &segment = m_segments[m_blocks[h].segment];
    segment.alive = false;
    segment.first = kNone;
    addReserved(-m_blocks[h].size);
    dropBlock(h);
}

// Unmaps the whole pages inside a free block of an expandable segment; partial pages at its
// ends stay mapped as free blocks.
void CachingAllocator::unmapFreePages(BlockHandle h)
{
    const Block &b = m_blocks[h];
    const Segment &segment = m_segments[b.segment];
    const Bytes page = pageSize(segment.pool);
    const Bytes lo = segment.base + roundUp(b.address - segment.base, page);
    const Bytes hi = segment.base + (b.address + b.size - segment.base) / page * page;
    if (hi <= lo)
        return;
    eraseFree(h);
    BlockHandle middle = h;
    if (lo > m_blocks[h].address) {
        middle = splitOff(h, lo - m_blocks[h].address);
        insertFree(h);
    }
    if (hi < m_blocks[middle].address + m_blocks[middle].size)
        insertFree(splitOff(middle, hi - lo));
    m_blocks[middle].mapped = false;
    addReserved(-(hi - lo));
    coalesce(middle);
}

bool CachingAllocator::mergeable(BlockHandle a, BlockHandle b) const
{
    const Block &x = m_blocks[a];
    const Block &y = m_blocks[b];
    return !x.allocated && !y.allocated && x.mapped == y.mapped;
}

BlockHandle CachingAllocator::coalesce(BlockHandle h)
{
    const bool mapped = m_blocks[h].mapped;
    const BlockHandle next = m_blocks[h].next;
    if (next != kNone && mergeable(h, next)) {
        if (mapped)
            eraseFree(next);
        absorbNext(h);
    }
    const BlockHandle prev = m_blocks[h].prev;
    if (prev != kNone && mergeable(prev, h)) {
        if (mapped)
            eraseFree(prev);
        absorbNext(prev);
        return prev;
    }
    return h;
}

BlockHandle CachingAllocator::splitOff(BlockHandle h, Bytes lowSize)
{
    Block high = m_blocks[h];
    high.address += lowSize;
    high.size -= lowSize;
    high.prev = h;
    const BlockHandle r = newBlock(high); // may move m_blocks
    Block &low = m_blocks[h];
    low.size = lowSize;
    if (low.next != kNone)
        m_blocks[low.next].prev = r;
    low.next = r;
    return r;
}

BlockHandle CachingAllocator::absorbNext(BlockHandle h)
{
    Block &b = m_blocks[h];
    const BlockHandle next = b.next;
    b.size += m_blocks[next].size;
    b.next = m_blocks[next].next;
    if (b.next != kNone)
        m_blocks[b.next].prev = h;
    dropBlock(next);
    return h;
}

void CachingAllocator::dropBlock(BlockHandle h)
{
    m_blocks[h].size = 0;
    m_blocks.release(h);
}

void CachingAllocator::insertFree(BlockHandle h)
{
    const Block &b = m_blocks[h];
    m_free[m_segments[b.segment].pool].insert(FreeKey{b.size, b.address, h});
    if (whole(b))
        ++m_wholeFreeSegments;
}

void CachingAllocator::eraseFree(BlockHandle h)
{
    const Block &b = m_blocks[h];
    m_free[m_segments[b.segment].pool].erase(FreeKey{b.size, b.address, h});
    if (whole(b))
        --m_wholeFreeSegments;
}

Bytes CachingAllocator::largestFixedFreeBlock() const
{
    Bytes largest = 0;
    for (const FreeSet &set : m_free)
        if (!set.empty())
            largest = std::max(largest, set.rbegin()->size);
    return largest;
}

// Live segments in creation order (which is address order), block by block, at offsets from
// their segments' bases: two replays whose segments came and went differently may still hold
// the same memory, only elsewhere in the address space.
bool CachingAllocator::sameState(const Allocator &other) const
{
    const auto *cache = dynamic_cast<const CachingAllocator *>(&other);
    if (!cache || allocated() != other.allocated() || reserved() != other.reserved() ||
        !(m_options == cache->m_options) ||
        m_free[Small].size() != cache->m_free[Small].size() || m_free[Large].size() != cache->m_free[Large].size())
        return false;
    std::size_t i = 0;
    std::size_t j = 0;
    for (;; ++i, ++j) {
        while (i < m_segments.size() && !m_segments[i].alive)
            ++i;
        while (j < cache->m_segments.size() && !cache->m_segments[j].alive)
            ++j;
        if (i == m_segments.size() || j == cache->m_segments.size())
            return i == m_segments.size() && j == cache->m_segments.size();
        const Segment &x = m_segments[i];
        const Segment &y = cache->m_segments[j];
        if (x.size != y.size || x.pool != y.pool || x.expandable != y.expandable)
            return false;
        BlockHandle a = x.first;
        BlockHandle b = y.first;
        for (; a != kNone && b != kNone; a = m_blocks[a].next, b = cache->m_blocks[b].next) {
            const Block &p = m_blocks[a];
            const Block &q = cache->m_blocks[b];
            if (p.address - x.base != q.address - y.base || p.size != q.size || p.allocated != q.allocated ||
                p.mapped != q.mapped)
                return false;
        }
        if (a != b)
            return false;
    }
}

Allocator::BlockPlace CachingAllocator::placeOf(BlockHandle block) const
{
    const std::uint32_t segment = m_blocks[block].segment;
    std::uint32_t alive = 0;
    for (std::uint32_t i = 0; i < segment; ++i)
        alive += m_segments[i].alive ? 1 : 0;
    return {alive, m_blocks[block].address - m_segments[segment].base};
}

std::vector<SegmentView> CachingAllocator::layout() const
{
    std::vector<SegmentView> views;
    for (const Segment &segment : m_segments) {
        if (!segment.alive)
            continue;
        SegmentView view{segment.base, segment.size, {}, segment.pool == Small ? SegmentPool::Small : SegmentPool::Large};
        for (BlockHandle h = segment.first; h != kNone; h = m_blocks[h].next) {
            const Block &b = m_blocks[h];
            const auto state = !b.mapped     ? BlockView::State::Unmapped
                               : b.allocated ? BlockView::State::Allocated
                                             : BlockView::State::Free;
            view.blocks.push_back(BlockView{b.address, b.size, state, b.allocated ? h : kNone});
        }
        views.push_back(std::move(view));
    }
    return views;
}

std::string CachingAllocator::bookkeepingProblem() const
{
    std::size_t freeBlocks = 0;
    std::int64_t wholeFree = 0;
    Bytes mapped = 0;
    for (std::uint32_t i = 0; i < m_segments.size(); ++i) {
        const Segment &segment = m_segments[i];
        if (!segment.alive)
            continue;
        BlockHandle prev = kNone;
        for (BlockHandle h = segment.first; h != kNone; prev = h, h = m_blocks[h].next) {
            const Block &b = m_blocks[h];
            if (b.prev != prev || b.segment != i)
                return "block links of segment at " + std::to_string(segment.base) + " are inconsistent";
            if (b.mapped)
                mapped += b.size;
            if (!b.allocated && b.mapped) {
                ++freeBlocks;
                if (!m_free[segment.pool].contains(FreeKey{b.size, b.address, h}))
                    return "free block at " + std::to_string(b.address) + " is missing from its pool";
                if (whole(b))
                    ++wholeFree;
            }
        }
    }
    if (freeBlocks != m_free[Small].size() + m_free[Large].size())
        return "the pools hold blocks that are not free";
    if (mapped != reserved())
        return "reserved " + std::to_string(reserved()) + " differs from the mapped bytes " + std::to_string(mapped);
    if (wholeFree != m_wholeFreeSegments)
        return "the count of whole free segments is off";
    return {};
}

} // namespace rematlens
