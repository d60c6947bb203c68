#pragma once

#include "allocator.h"

#include <vector>

namespace rematlens {

// Values addressed by stable handles: a released handle's slot is reused by the next add.
template <typename T>
class SlotVector {
public:
    BlockHandle add(const T &value)
    {
        if (!m_spare.empty()) {
            const BlockHandle h = m_spare.back();
            m_spare.pop_back();
            m_slots[h] = value;
            return h;
        }
        m_slots.push_back(value);
        return static_cast<BlockHandle>(m_slots.size() - 1);
    }
    void release(BlockHandle h) { m_spare.push_back(h); }
    T &operator[](BlockHandle h) { return m_slots[h]; }
    const T &operator[](BlockHandle h) const { return m_slots[h]; }

private:
    std::vector<T> m_slots;
    std::vector<BlockHandle> m_spare;
};

} // namespace rematlens
