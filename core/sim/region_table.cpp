#include "region_table.h"

namespace rematlens {

RegionTable::RegionTable(std::size_t storageCount, RegionTable recycled)
{
    if (recycled.size() == storageCount) {
        *this = std::move(recycled);
        for (StorageId s = 0; s < storageCount; ++s)
            overwrite(s).clear();
        return;
    }
    m_size = storageCount;
    m_blocks.reserve((storageCount + kBlockSize - 1) / kBlockSize);
    for (std::size_t first = 0; first < storageCount; first += kBlockSize) {
        Block *block = new Block;
        for (std::size_t i = 0; i < kBlockSize && first + i < storageCount; ++i)
            block->nodes[i] = new Node;
        m_blocks.push_back(block);
    }
}

RegionTable::RegionTable(const RegionTable &other)
    : m_blocks(other.m_blocks)
    , m_size(other.m_size)
{
    for (Block *block : m_blocks)
        block->references.fetch_add(1, std::memory_order_relaxed);
}

RegionTable::RegionTable(RegionTable &&other) noexcept
    : m_blocks(std::move(other.m_blocks))
    , m_size(other.m_size)
{
    other.m_blocks.clear();
    other.m_size = 0;
}

RegionTable &RegionTable::operator=(RegionTable &&other) noexcept
{
    if (this != &other) {
        releaseAll();
        m_blocks = std::move(other.m_blocks);
        m_size = other.m_size;
        other.m_blocks.clear();
        other.m_size = 0;
    }
    return *this;
}

RegionTable::~RegionTable()
{
    releaseAll();
}

// A block of this table's own holding the same regions, each now held by one block more.
RegionTable::Block *RegionTable::ownBlock(std::size_t b)
{
    Block *own = new Block;
    own->nodes = m_blocks[b]->nodes;
    for (Node *node : own->nodes)
        if (node)
            node->references.fetch_add(1, std::memory_order_relaxed);
    release(m_blocks[b]);
    m_blocks[b] = own;
    return own;
}

Region &RegionTable::ownCopy(StorageId s)
{
    Node *&held = slot(s);
    Node *own = new Node;
    own->region.assignWithRoom(held->region, m_size);
    release(held);
    held = own;
    return own->region;
}

Region &RegionTable::ownEmpty(StorageId s)
{
    Node *&held = slot(s);
    release(held);
    held = new Node;
    return held->region;
}

void RegionTable::release(Node *node)
{
    if (node->references.fetch_sub(1, std::memory_order_acq_rel) == 1)
        delete node;
}

void RegionTable::release(Block *block)
{
    if (block->references.fetch_sub(1, std::memory_order_acq_rel) != 1)
        return;
    for (Node *node : block->nodes)
        if (node)
            release(node);
    delete block;
}

void RegionTable::releaseAll()
{
    for (Block *block : m_blocks)
        release(block);
    m_blocks.clear();
    m_size = 0;
}

} // namespace rematlens
