#pragma once

#include "../trace/program.h"

#include <vector>

namespace rematlens {

// simrd's storage pool: an ordered list with append, removal anywhere and in-order scans.
// Removal leaves a hole that scans skip; holes are squeezed out when they dominate.
class EvictablePool {
public:
    explicit EvictablePool(std::size_t storageCount) : m_position(storageCount, kNone) {}

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

    // The storage at a live index in [0, size()), for random choice.
    StorageId nth(std::size_t index) const
    {
        for (StorageId s : m_slots)
            if (s != kNone && index-- == 0)
                return s;
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
    }

    std::vector<StorageId> m_slots;
    std::vector<std::uint32_t> m_position;
    std::size_t m_live = 0;
};

} // namespace rematlens
