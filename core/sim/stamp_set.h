#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace rematlens {

// A set of small integers (storage ids) that clears in O(1): membership is "stamped with the
// current generation".
class StampSet {
public:
    explicit StampSet(std::size_t universe = 0) : m_stamps(universe, 0) {}

    void clear()
    {
        if (++m_current == 0) { // wrapped: forget every old stamp once
            std::fill(m_stamps.begin(), m_stamps.end(), 0);
            m_current = 1;
        }
    }
    // Makes room for members below universe (the set keeps its members).
    void grow(std::size_t universe)
    {
        if (universe > m_stamps.size())
            m_stamps.resize(universe, 0);
    }
    // True when x was not in the set.
    bool insert(std::uint32_t x)
    {
        if (m_stamps[x] == m_current)
            return false;
        m_stamps[x] = m_current;
        return true;
    }
    bool contains(std::uint32_t x) const { return m_stamps[x] == m_current; }

private:
    std::vector<std::uint32_t> m_stamps;
    std::uint32_t m_current = 1;
};

} // namespace rematlens
