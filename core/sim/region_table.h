#pragma once

#include "region.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <vector>

namespace rematlens {

// The regions of every storage in one direction, shared with the table's copies until one of
// them changes a region (copy on write). The map walker keeps copies of a replay along its
// path, most of them never continued, and a replay changes few regions between two copies.
// Sharing is two-level: regions are held in blocks of kBlockSize, and a copy of the table
// shares its blocks (a pointer and a reference count per block); the first change in a shared
// block gives the changing table a block of its own that still shares every region, and the
// first change of a shared region copies that region alone. Copies of one table live on several
// threads, so the counts are atomic and a block or region is changed in place only when its
// count says no one else holds it.
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

    std::size_t size() const { return m_size; }
    const Region &operator[](StorageId s) const { return nodeOf(s)->region; }
    // s's region to change in place: made this table's own first if another table shares it.
    Region &change(StorageId s)
    {
        Node *node = ownNodeSlot(s);
        return shared(node) ? ownCopy(s) : node->region;
    }
    // s's region to overwrite (the caller clears it): like change(), but a shared region's
    // contents are not copied.
    Region &overwrite(StorageId s)
    {
        Node *node = ownNodeSlot(s);
        return shared(node) ? ownEmpty(s) : node->region;
    }
    // Both tables hold the same region for s: one shared, or two equal ones.
    bool same(StorageId s, const RegionTable &other) const
    {
        if (m_blocks[s / kBlockSize] == other.m_blocks[s / kBlockSize])
            return true;
        const Node *mine = nodeOf(s);
        const Node *theirs = other.nodeOf(s);
        return mine == theirs || mine->region.sameAs(theirs->region);
    }

private:
    struct Node {
        std::atomic<std::uint32_t> references{1};
        Region region;
    };
    struct Block {
        std::atomic<std::uint32_t> references{1};
        std::array<Node *, kBlockSize> nodes{}; // null past the table's size
    };

    // Acquire: another holder's last reads happen before this table changes what it held.
    template <typename Shared>
    static bool shared(const Shared *held)
    {
        return held->references.load(std::memory_order_acquire) != 1;
    }
    const Node *nodeOf(StorageId s) const { return m_blocks[s / kBlockSize]->nodes[s % kBlockSize]; }
    // s's node, in a block this table holds alone (the node itself may still be shared).
    Node *ownNodeSlot(StorageId s)
    {
        Block *block = m_blocks[s / kBlockSize];
        if (shared(block))
            block = ownBlock(s / kBlockSize);
        return block->nodes[s % kBlockSize];
    }
    Node *&slot(StorageId s) { return m_blocks[s / kBlockSize]->nodes[s % kBlockSize]; }
    static void release(Node *node);
    static void release(Block *block);
    // Out of line: the hot callers mostly find their block and region unshared.
    [[gnu::noinline]] Block *ownBlock(std::size_t b);
    [[gnu::noinline]] Region &ownCopy(StorageId s);
    [[gnu::noinline]] Region &ownEmpty(StorageId s);
    void releaseAll();

    std::vector<Block *> m_blocks;
    std::size_t m_size = 0;
};

} // namespace rematlens
