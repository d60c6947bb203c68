#pragma once

#include "allocator.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <iterator>
#include <vector>

namespace rematlens {

// A free block's place in a best-fit set: by size, then address (the lowest wins a tie).
struct FreeBlockKey {
    Bytes size;
    Bytes address;
    BlockHandle block;
    bool operator<(const FreeBlockKey &o) const { return size != o.size ? size < o.size : address < o.address; }
};

// The free blocks of a pool in best-fit order. Keys are spread over size classes, sixteen per
// power of two (as TLSF does), each class a short sorted array, with a bitmap of the classes
// that hold any: a lookup or an update touches one class of a few keys instead of searching
// and shifting all of them (a pool holds about a hundred free blocks on the public traces).
// Classes grow with size, so class order then key order within a class is best-fit order.
class FreeBlockSet {
public:
    class const_iterator {
    public:
        using iterator_category = std::bidirectional_iterator_tag;
        using value_type = FreeBlockKey;
        using difference_type = std::ptrdiff_t;
        using pointer = const FreeBlockKey *;
        using reference = const FreeBlockKey &;

        const_iterator() = default;
        reference operator*() const { return m_set->m_classes[m_class][m_index]; }
        pointer operator->() const { return &**this; }
        const_iterator &operator++()
        {
            if (++m_index == m_set->m_classes[m_class].size()) {
                m_class = m_set->nextClass(m_class + 1);
                m_index = 0;
            }
            return *this;
        }
        const_iterator &operator--()
        {
            if (m_index == 0) {
                m_class = m_set->previousClass(m_class);
                m_index = m_set->m_classes[m_class].size();
            }
            --m_index;
            return *this;
        }
        const_iterator operator++(int)
        {
            const_iterator before = *this;
            ++*this;
            return before;
        }
        const_iterator operator--(int)
        {
            const_iterator before = *this;
            --*this;
            return before;
        }
        bool operator==(const const_iterator &o) const { return m_class == o.m_class && m_index == o.m_index; }

    private:
        friend class FreeBlockSet;
        const_iterator(const FreeBlockSet *set, std::size_t cls, std::size_t index)
            : m_set(set)
            , m_class(cls)
            , m_index(index)
        {
        }
        const FreeBlockSet *m_set = nullptr;
        std::size_t m_class = 0; // end(): the class count
        std::size_t m_index = 0;
    };
    using const_reverse_iterator = std::reverse_iterator<const_iterator>;

    const_iterator begin() const { return {this, nextClass(0), 0}; }
    const_iterator end() const { return {this, m_classes.size(), 0}; }
    const_reverse_iterator rbegin() const { return const_reverse_iterator(end()); }
    const_reverse_iterator rend() const { return const_reverse_iterator(begin()); }
    bool empty() const { return m_count == 0; }
    std::size_t size() const { return m_count; }

    // The first key not before `key`.
    const_iterator lower_bound(const FreeBlockKey &key) const
    {
        const std::size_t cls = classOf(key.size);
        if (cls >= m_classes.size())
            return end();
        const std::vector<FreeBlockKey> &keys = m_classes[cls];
        const auto it = std::lower_bound(keys.begin(), keys.end(), key);
        if (it != keys.end())
            return {this, cls, static_cast<std::size_t>(it - keys.begin())};
        return {this, nextClass(cls + 1), 0};
    }
    bool contains(const FreeBlockKey &key) const
    {
        const auto it = lower_bound(key);
        return it != end() && !(key < *it);
    }
    void insert(const FreeBlockKey &key)
    {
        const std::size_t cls = classOf(key.size);
        if (cls >= m_classes.size()) {
            m_classes.resize(cls + 1);
            m_nonEmpty.resize(cls / 64 + 1, 0);
        }
        std::vector<FreeBlockKey> &keys = m_classes[cls];
        keys.insert(std::lower_bound(keys.begin(), keys.end(), key), key);
        m_nonEmpty[cls / 64] |= Word{1} << (cls % 64);
        ++m_count;
    }
    void erase(const FreeBlockKey &key)
    {
        const std::size_t cls = classOf(key.size);
        if (cls >= m_classes.size())
            return;
        std::vector<FreeBlockKey> &keys = m_classes[cls];
        const auto it = std::lower_bound(keys.begin(), keys.end(), key);
        if (it == keys.end() || key < *it)
            return;
        keys.erase(it);
        if (keys.empty())
            m_nonEmpty[cls / 64] &= ~(Word{1} << (cls % 64));
        --m_count;
    }

private:
    using Word = std::uint64_t;
    static constexpr unsigned kSubclassBits = 4;

    // Sizes below 16 have a class each; above, each power of two splits into 16 classes.
    static std::size_t classOf(Bytes size)
    {
        const auto v = static_cast<std::uint64_t>(size);
        if (v < (1u << kSubclassBits))
            return v;
        const unsigned top = static_cast<unsigned>(std::bit_width(v)) - 1; // >= kSubclassBits
        const std::uint64_t sub = (v >> (top - kSubclassBits)) - (std::uint64_t{1} << kSubclassBits);
        return (std::size_t{top} - kSubclassBits + 1) * (std::size_t{1} << kSubclassBits) + sub;
    }

    // The first class from `from` on that holds a key, or the class count.
    std::size_t nextClass(std::size_t from) const
    {
        for (std::size_t w = from / 64; w < m_nonEmpty.size(); ++w) {
            Word bits = m_nonEmpty[w];
            if (w == from / 64)
                bits &= ~Word{0} << (from % 64);
            if (bits != 0)
                return w * 64 + static_cast<std::size_t>(std::countr_zero(bits));
        }
        return m_classes.size();
    }

    // The last class before `before` that holds a key (one must).
    std::size_t previousClass(std::size_t before) const
    {
        for (std::size_t w = (before - 1) / 64;; --w) {
            Word bits = m_nonEmpty[w];
            if (w == (before - 1) / 64 && before % 64 != 0)
                bits &= (Word{1} << (before % 64)) - 1;
            if (bits != 0)
                return w * 64 + 63 - static_cast<std::size_t>(std::countl_zero(bits));
        }
    }

    std::vector<std::vector<FreeBlockKey>> m_classes;
    std::vector<Word> m_nonEmpty; // bit c: class c holds a key
    std::size_t m_count = 0;
};

} // namespace rematlens
