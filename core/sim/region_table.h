#pragma once

#include "region.h"

#include <atomic>
#include <cstdint>
#include <vector>

namespace rematlens {

// The regions of every storage in one direction, shared with the table's copies until one of
// them changes a region (copy on write, region by region). The map walker keeps copies of a
// replay along its path, most of them never continued, and a replay changes few regions
// between two copies: a copy costs a pointer and a reference count per storage instead of
// every region's bitmaps. Copies of one table live on several threads, so the counts are
// atomic and a region is changed in place only when its count says no other table holds it.
class RegionTable {
public:
    RegionTable() = default;
    // Empty regions for storageCount storages, reusing the regions (and their buffers) of
    // recycled that no other table shares.
    RegionTable(std::size_t storageCount, RegionTable recycled);
    RegionTable(const RegionTable &other);
    RegionTable(RegionTable &&other) noexcept;
    RegionTable &operator=(const RegionTable &) = delete;
    RegionTable &operator=(RegionTable &&other) noexcept;
    ~RegionTable();

    std::size_t size() const { return m_nodes.size(); }
    const Region &operator[](StorageId s) const { return m_nodes[s]->region; }
    // s's region to change in place: made this table's own first if another table shares it.
    Region &change(StorageId s)
    {
        Node *node = m_nodes[s];
        return shared(node) ? ownCopy(s) : node->region;
    }
    // s's region to overwrite (the caller clears it): like change(), but a shared region's
    // contents are not copied.
    Region &overwrite(StorageId s)
    {
        Node *node = m_nodes[s];
        return shared(node) ? ownEmpty(s) : node->region;
    }
    // Both tables hold the same region for s: one shared, or two equal ones.
    bool same(StorageId s, const RegionTable &other) const
    {
        return m_nodes[s] == other.m_nodes[s] || m_nodes[s]->region.sameAs(other.m_nodes[s]->region);
    }

private:
    struct Node {
        std::atomic<std::uint32_t> references{1};
        Region region;
    };

    // Acquire: another table's last reads of the region happen before this one changes it.
    static bool shared(const Node *node) { return node->references.load(std::memory_order_acquire) != 1; }
    static void release(Node *node);
    // Out of line: the hot callers mostly find their region unshared.
    [[gnu::noinline]] Region &ownCopy(StorageId s);
    [[gnu::noinline]] Region &ownEmpty(StorageId s);
    void releaseAll();

    std::vector<Node *> m_nodes;
};

} // namespace rematlens
