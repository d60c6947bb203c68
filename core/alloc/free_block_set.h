#pragma once

#include "allocator.h"

#include <algorithm>
#include <vector>

namespace rematlens {

// A free block's place in a best-fit set: by size, then address (the lowest wins a tie).
struct FreeBlockKey {
    Bytes size;
    Bytes address;
    BlockHandle block;
    bool operator<(const FreeBlockKey &o) const { return size != o.size ? size < o.size : address < o.address; }
};

// The free blocks of a pool in best-fit order, as one sorted array. A replay's pools hold about a
// hundred free blocks (three hundred at most on the public traces), where moving a few
// kilobytes on insert and erase costs less than a tree's node allocation and pointer chasing.
class FreeBlockSet {
public:
    using const_iterator = std::vector<FreeBlockKey>::const_iterator;

    const_iterator begin() const { return m_keys.begin(); }
    const_iterator end() const { return m_keys.end(); }
    auto rbegin() const { return m_keys.rbegin(); }
    auto rend() const { return m_keys.rend(); }
    bool empty() const { return m_keys.empty(); }
    std::size_t size() const { return m_keys.size(); }

    // The first key not before `key`.
    const_iterator lower_bound(const FreeBlockKey &key) const { return std::lower_bound(m_keys.begin(), m_keys.end(), key); }
    bool contains(const FreeBlockKey &key) const
    {
        const auto it = lower_bound(key);
        return it != end() && !(key < *it);
    }
    void insert(const FreeBlockKey &key) { m_keys.insert(lower_bound(key), key); }
    // old (present) becomes now (absent), moving only the keys between their places.
    void replace(const FreeBlockKey &old, const FreeBlockKey &now)
    {
        const auto from = m_keys.begin() + (lower_bound(old) - begin());
        const auto to = std::lower_bound(m_keys.begin(), m_keys.end(), now);
        if (to <= from) {
            std::move_backward(to, from, from + 1);
            *to = now;
        } else {
            std::move(from + 1, to, from);
            *(to - 1) = now;
        }
    }
    void erase(const FreeBlockKey &key)
    {
        const auto it = lower_bound(key);
        if (it != end() && !(key < *it))
            m_keys.erase(it);
    }

private:
    std::vector<FreeBlockKey> m_keys;
};

} // namespace rematlens
