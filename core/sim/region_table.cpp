#include "region_table.h"

namespace rematlens {

RegionTable::RegionTable(std::size_t storageCount, RegionTable recycled)
{
    if (recycled.size() == storageCount) {
        m_nodes = std::move(recycled.m_nodes);
        for (StorageId s = 0; s < storageCount; ++s)
            overwrite(s).clear();
        return;
    }
    m_nodes.reserve(storageCount);
    for (std::size_t s = 0; s < storageCount; ++s)
        m_nodes.push_back(new Node);
}

RegionTable::RegionTable(const RegionTable &other)
    : m_nodes(other.m_nodes)
{
    for (Node *node : m_nodes)
        node->references.fetch_add(1, std::memory_order_relaxed);
}

RegionTable::RegionTable(RegionTable &&other) noexcept
    : m_nodes(std::move(other.m_nodes))
{
    other.m_nodes.clear();
}

RegionTable &RegionTable::operator=(RegionTable &&other) noexcept
{
    if (this != &other) {
        releaseAll();
        m_nodes = std::move(other.m_nodes);
        other.m_nodes.clear();
    }
    return *this;
}

RegionTable::~RegionTable()
{
    releaseAll();
}

Region &RegionTable::ownCopy(StorageId s)
{
    Node *own = new Node;
    own->region = m_nodes[s]->region;
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

void RegionTable::releaseAll()
{
    for (Node *node : m_nodes)
        release(node);
    m_nodes.clear();
}

} // namespace rematlens
