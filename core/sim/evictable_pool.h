#pragma once

#include "../trace/program.h"
#include "bit_count.h"

#include <bit>
#include <cstdint>
#include <vector>

namespace rematlens {

// simrd's storage pool: an ordered list with append, removal anywhere and in-order scans.
// Removal leaves a hole that scans skip; holes are squeezed out when they dominate. A pool made
// for random choice also keeps a bitmap of its live slots, so that finding the n-th live storage
// counts bits a word at a time instead of visiting every slot; other pools pay nothing for it.
class EvictablePool {
public:
    EvictablePool(std::size_t storageCount, bool forRandomChoice)
        : m_position(storageCount, kNone), m_indexed(forRandomChoice)
    {
    }

    bool contains(StorageId s) const { return m_position[s] != kNone; }
    bool empty() const { return m_live == 0; }
    std::size_t size() const { return m_live; }

    void append(StorageId s)
    {
        if (contains(s))
            return;
        if (m_slots.size() == kNone - 1)
            compact();
        m_position[s] = static_cast<std::uint32_t>(m_slots.size());
        if (m_indexed)
            markLive(m_slots.size());
        m_slots.push_back(s);
        ++m_live;
    }

    void remove(StorageId s)
    {
        const std::uint32_t pos = m_position[s];
        if (pos == kNone)
            return;
        m_slots[pos] = kNone;
        m_position[s] = kNone;
        if (m_indexed)
            m_liveBits[pos / 64] &= ~(std::uint64_t{1} << (pos % 64));
        --m_live;
        if (m_slots.size() > 64 && m_live * 2 < m_slots.size())
            compact();
    }

    // Calls visit(storage) in pool order until it returns false.
    template <typename Visit>
    void scan(Visit &&visit) const
    {
        for (StorageId s : m_slots)
            if (s != kNone && !visit(s))
                return;
    }

    // The storage at a live index in [0, size()), for random choice (a pool made for it).
    StorageId nth(std::size_t index) const
    {
        for (std::size_t w = 0; w < m_liveBits.size(); ++w) {
            std::uint64_t bits = m_liveBits[w];
            const std::size_t live = countBits(bits);
            if (index >= live) {
                index -= live;
                continue;
            }
            return m_slots[w * 64 + selectBit(bits, index)];
        }
        return kNone;
    }

    // The same storages in the same order, wherever the holes are.
    bool sameOrder(const EvictablePool &other) const
    {
        if (m_live != other.m_live)
            return false;
        std::size_t j = 0;
        for (StorageId s : m_slots) {
            if (s == kNone)
                continue;
            while (other.m_slots[j] == kNone)
                ++j;
            if (other.m_slots[j++] != s)
                return false;
        }
        return true;
    }

private:
    void compact()
    {
        std::size_t out = 0;
        for (StorageId s : m_slots)
            if (s != kNone) {
                m_position[s] = static_cast<std::uint32_t>(out);
                m_slots[out++] = s;
            }
        m_slots.resize(out);
        if (m_indexed) { // the live slots are now the first `out`
            m_liveBits.assign((out + 63) / 64, ~std::uint64_t{0});
            if (out % 64)
                m_liveBits.back() = (std::uint64_t{1} << (out % 64)) - 1;
        }
    }

    void markLive(std::size_t slot)
    {
        if (slot / 64 >= m_liveBits.size())
            m_liveBits.push_back(0);
        m_liveBits[slot / 64] |= std::uint64_t{1} << (slot % 64);
    }

    std::vector<StorageId> m_slots;
    std::vector<std::uint32_t> m_position;
    std::vector<std::uint64_t> m_liveBits; // bit i: slot i holds a storage; only when m_indexed
    std::size_t m_live = 0;
    bool m_indexed;
};

} // namespace rematlens
