#pragma once

#include "region.h"

#include <atomic>
#include <cstdint>
#include <vector>

namespace rematlens {

// The regions of every storage in one direction, shared with the table's copies until one of
// them changes a region (copy on write). The map walker keeps copies of a replay along its
// path, most of them never continued, and a replay changes few regions between two copies.
// Sharing is counted per block of kBlockSize storages: a copy of the table copies the
// pointers to the regions and counts one more holder of each block; the first change in a
// shared block makes the changing table hold that block's regions on its own account (each
// region then counts one more holder), and the first change of a shared region copies that
// region alone. Reading a region costs what it would without sharing. Copies of one table live
// on several threads, so the counts are atomic and a region is changed in place only when the
// counts say no other table holds it.
class RegionTable {
public:
    static constexpr std::size_t kBlockSize = 64;

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
        Node *node = ownSlot(s);
        return shared(node) ? ownCopy(s) : node->region;
    }
    // s's region to overwrite (the caller clears it): like change(), but a shared region's
    // contents are not copied.
    Region &overwrite(StorageId s)
    {
        Node *node = ownSlot(s);
        return shared(node) ? ownEmpty(s) : node->region;
    }
    // Both tables hold the same region for s: one shared, or two equal ones.
    bool same(StorageId s, const RegionTable &other) const
    {
        return m_nodes[s] == other.m_nodes[s] || m_nodes[s]->region.sameAs(other.m_nodes[s]->region);
    }

private:
    // A region and the number of blocks holding it.
    struct Node {
        std::atomic<std::uint32_t> references{1};
        Region region;
    };
    // One block's hold on its regions, and the number of tables sharing it.
    struct BlockHold {
        std::atomic<std::uint32_t> references{1};
    };

    // Acquire: another holder's last reads happen before this table changes what it held.
    template <typename Counted>
    static bool shared(const Counted *counted)
    {
        return counted->references.load(std::memory_order_acquire) != 1;
    }
    // s's region, in a block this table holds alone (the region itself may still be shared).
    Node *ownSlot(StorageId s)
    {
        if (m_copied.load(std::memory_order_relaxed) && shared(m_holds[s / kBlockSize]))
            ownBlock(s / kBlockSize);
        return m_nodes[s];
    }
    static void release(Node *node);
    void releaseBlock(std::size_t b);
    // Out of line: the hot callers mostly find their block and region unshared.
    [[gnu::noinline]] void ownBlock(std::size_t b);
    [[gnu::noinline]] Region &ownCopy(StorageId s);
    [[gnu::noinline]] Region &ownEmpty(StorageId s);
    void releaseAll();

    std::vector<Node *> m_nodes;
    std::vector<BlockHold *> m_holds; // per block of kBlockSize storages
    // Set once the table has been copied or is a copy: until then (a sweep's replays) no block
    // can be shared, and changes skip the blocks' counts. Atomic: a trail's copies are copied
    // again on several threads.
    mutable std::atomic<bool> m_copied{false};
};

} // namespace rematlens
