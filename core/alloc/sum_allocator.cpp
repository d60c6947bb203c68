#include "sum_allocator.h"

namespace rematlens {

std::optional<BlockHandle> SumAllocator::allocate(Bytes n)
{
    if (allocated() + n > m_capacity)
        return std::nullopt;
    addAllocated(n);
    addReserved(n);
    if (!m_spare.empty()) {
        const BlockHandle h = m_spare.back();
        m_spare.pop_back();
        m_sizes[h] = n;
        return h;
    }
    m_sizes.push_back(n);
    return static_cast<BlockHandle>(m_sizes.size() - 1);
}

void SumAllocator::free(BlockHandle block)
{
    addAllocated(-m_sizes[block]);
    addReserved(-m_sizes[block]);
    m_sizes[block] = -1;
    m_spare.push_back(block);
}

} // namespace rematlens
