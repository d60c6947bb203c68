#include "region_table.h"

#include <algorithm>

namespace rematlens {

RegionTable::RegionTable(std::size_t storageCount, RegionTable recycled)
{
    if (recycled.size() == storageCount) {
        *this = std::move(recycled);
        for (StorageId s = 0; s < storageCount; ++s)
            overwrite(s).clear();
        return;
    }
    m_nodes.reserve(storageCount);
    for (std::size_t s = 0; s < storageCount; ++s)
        m_nodes.push_back(new Node);
    for (std::size_t first = 0; first < storageCount; first += kBlockSize)
        m_holds.push_back(new BlockHold);
}

RegionTable::RegionTable(const RegionTable &other)
    : m_nodes(other.m_nodes)
    , m_holds(other.m_holds)
    , m_copied(true)
{
    if (!other.m_copied.load(std::memory_order_relaxed))
        other.m_copied.store(true, std::memory_order_relaxed);
    for (BlockHold *hold : m_holds)
        hold->references.fetch_add(1, std::memory_order_relaxed);
}

RegionTable::RegionTable(RegionTable &&other) noexcept
    : m_nodes(std::move(other.m_nodes))
    , m_holds(std::move(other.m_holds))
    , m_copied(other.m_copied.load(std::memory_order_relaxed))
{
    other.m_nodes.clear();
    other.m_holds.clear();
}

RegionTable &RegionTable::operator=(RegionTable &&other) noexcept
{
    if (this != &other) {
        releaseAll();
        m_nodes = std::move(other.m_nodes);
        m_holds = std::move(other.m_holds);
        m_copied.store(other.m_copied.load(std::memory_order_relaxed), std::memory_order_relaxed);
        other.m_nodes.clear();
        other.m_holds.clear();
    }
    return *this;
}

RegionTable::~RegionTable()
{
    releaseAll();
}

// This table holds block b's regions on its own account: each counts one more holder, and
// the shared hold counts one table less.
void RegionTable::ownBlock(std::size_t b)
{
    const std::size_t end = std::min(m_nodes.size(), (b + 1) * kBlockSize);
    for (std::size_t s = b * kBlockSize; s < end; ++s)
        m_nodes[s]->references.fetch_add(1, std::memory_order_relaxed);
    releaseBlock(b);
    m_holds[b] = new BlockHold;
}

Region &RegionTable::ownCopy(StorageId s)
{
    Node *own = new Node;
    own->region.assignWithRoom(m_nodes[s]->region, m_nodes.size());
    release(m_nodes[s]);
    m_nodes[s] = own;
    return own->region;
}

Region &RegionTable::ownEmpty(StorageId s)
{
    release(m_nodes[s]);
    m_nodes[s] = new Node;
    return m_nodes[s]->region;
}

void RegionTable::release(Node *node)
{
    if (node->references.fetch_sub(1, std::memory_order_acq_rel) == 1)
        delete node;
}

// The last table sharing block b's hold lets go of its regions.
void RegionTable::releaseBlock(std::size_t b)
{
    if (m_holds[b]->references.fetch_sub(1, std::memory_order_acq_rel) != 1)
        return;
    const std::size_t end = std::min(m_nodes.size(), (b + 1) * kBlockSize);
    for (std::size_t s = b * kBlockSize; s < end; ++s)
        release(m_nodes[s]);
    delete m_holds[b];
}

void RegionTable::releaseAll()
{
    for (std::size_t b = 0; b < m_holds.size(); ++b)
        releaseBlock(b);
    m_nodes.clear();
    m_holds.clear();
}

} // namespace rematlens
