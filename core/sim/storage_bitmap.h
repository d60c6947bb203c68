#pragma once

#include "../trace/program.h"
#include "bit_count.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstdint>
#include <vector>

namespace rematlens {

// A set of storage ids as a bitmap, with the range of words [low, high) that may hold a bit.
// The storages of one region were mostly created close together, so a union (the bulk of
// simrd's region bookkeeping) ORs a few words instead of testing members one by one.
class StorageBitmap {
public:
    using Word = std::uint64_t;

    StorageBitmap() = default;
    // A copy keeps only the words that may hold a bit (copies of a replay keep thousands of
    // sets); the first change makes room again.
    StorageBitmap(const StorageBitmap &other) { copyCompact(other); }
    StorageBitmap &operator=(const StorageBitmap &other)
    {
        if (this != &other)
            copyCompact(other);
        return *this;
    }
    StorageBitmap(StorageBitmap &&) noexcept = default;
    StorageBitmap &operator=(StorageBitmap &&) noexcept = default;

    std::size_t size() const { return m_count; }

    // Loops index the words as stored, with the base and data in locals, so that a set that
    // is not a compact copy pays nothing for the copies' layout.
    template <typename Visit>
    void forEach(Visit &&visit) const
    {
        const Word *bits = m_bits.data();
        const std::size_t base = m_base;
        for (std::size_t i = m_low - base, end = m_high - base; i < end; ++i)
            for (Word word = bits[i]; word != 0; word &= word - 1)
                visit(static_cast<StorageId>((i + base) * 64 + static_cast<std::size_t>(std::countr_zero(word))));
    }

    void clear()
    {
        if (m_high > m_low)
            std::fill(m_bits.begin() + static_cast<std::ptrdiff_t>(m_low - m_base),
                      m_bits.begin() + static_cast<std::ptrdiff_t>(m_high - m_base), Word{0});
        m_low = m_high = 0;
        m_count = 0;
    }

    // Makes room for the storages below storageCount; every change but clear() and erase()
    // assumes it.
    void reserve(std::size_t storageCount)
    {
        const std::size_t words = (storageCount + 63) / 64;
        if (m_base != 0 || m_bits.size() < words)
            grow(words);
    }

    // Becomes other's set laid out as a set that is not a compact copy, with room for the
    // storages below storageCount, in this set's own buffer where it is large enough.
    void assignWithRoom(const StorageBitmap &other, std::size_t storageCount)
    {
        clear();
        reserve(storageCount);
        if (other.m_high == other.m_low)
            return;
        std::copy(other.m_bits.begin() + static_cast<std::ptrdiff_t>(other.m_low - other.m_base),
                  other.m_bits.begin() + static_cast<std::ptrdiff_t>(other.m_high - other.m_base),
                  m_bits.begin() + static_cast<std::ptrdiff_t>(other.m_low));
        m_low = other.m_low;
        m_high = other.m_high;
        m_count = other.m_count;
    }

    // True when x was not in the set.
    bool insert(StorageId x)
    {
        const std::size_t w = x / 64;
        const Word bit = Word{1} << (x % 64);
        Word &word = reserved(w);
        if ((word & bit) != 0)
            return false;
        word |= bit;
        ++m_count;
        widen(w, w + 1);
        return true;
    }

    void erase(StorageId x)
    {
        const std::size_t w = x / 64;
        const Word bit = Word{1} << (x % 64);
        if (w < m_low || w >= m_high || (at(w) & bit) == 0)
            return;
        at(w) &= ~bit;
        --m_count;
    }

    void assign(const StorageId *begin, const StorageId *end)
    {
        if (begin == end)
            return;
        Word *bits = reservedWords();
        std::size_t low = m_low, high = m_high, count = m_count;
        for (const StorageId *x = begin; x != end; ++x) {
            const std::size_t w = *x / 64;
            const Word bit = Word{1} << (*x % 64);
            if ((bits[w] & bit) != 0)
                continue;
            bits[w] |= bit;
            ++count;
            if (high == low) {
                low = w;
                high = w + 1;
            } else {
                low = std::min(low, w);
                high = std::max(high, w + 1);
            }
        }
        m_low = low;
        m_high = high;
        m_count = count;
    }

    // The set becomes the storages of words [low, high) of a bitmap (from empty).
    void assign(const Word *bitmap, std::size_t low, std::size_t high)
    {
        Word *bits = reservedWords();
        std::size_t first = high, last = low, count = 0; // the words set: [first, last)
        for (std::size_t w = low; w < high; ++w) {
            const Word word = bitmap[w];
            if (word == 0)
                continue;
            bits[w] = word;
            count += countBits(word);
            first = std::min(first, w);
            last = w + 1;
        }
        m_count += count;
        if (count != 0)
            widen(first, last);
    }

    // Adds other's storages, calling added(x) for each one that was not in the set.
    template <typename Added>
    void unite(const StorageBitmap &other, Added &&added)
    {
        Word *bits = reservedWords();
        const Word *from = other.m_bits.data();
        const std::size_t base = other.m_base;
        std::size_t count = m_count;
        for (std::size_t i = other.m_low - base, end = other.m_high - base; i < end; ++i) {
            const std::size_t w = i + base;
            Word fresh = from[i] & ~bits[w];
            if (fresh == 0)
                continue;
            bits[w] |= fresh;
            for (; fresh != 0; fresh &= fresh - 1) {
                added(static_cast<StorageId>(w * 64 + static_cast<std::size_t>(std::countr_zero(fresh))));
                ++count;
            }
        }
        m_count = count;
        if (other.m_high > other.m_low)
            widen(other.m_low, other.m_high);
    }

    // The same storages, however each set's words are laid out.
    bool sameSet(const StorageBitmap &other) const
    {
        if (m_count != other.m_count)
            return false;
        const std::size_t low = std::min(m_low, other.m_low);
        const std::size_t high = std::max(m_high, other.m_high);
        for (std::size_t w = low; w < high; ++w)
            if (wordAt(w) != other.wordAt(w))
                return false;
        return true;
    }

private:
    Word &at(std::size_t w) { return m_bits[w - m_base]; }
    Word at(std::size_t w) const { return m_bits[w - m_base]; }
    // A change's word: reserve() has run, so the words are laid out from 0.
    Word &reserved(std::size_t w)
    {
        assert(m_base == 0);
        return m_bits[w];
    }
    Word *reservedWords()
    {
        assert(m_base == 0);
        return m_bits.data();
    }
    Word wordAt(std::size_t w) const { return w >= m_low && w < m_high ? at(w) : Word{0}; }

    // Out of line: the hot callers reserve before every change and almost never grow.
    [[gnu::noinline]] void grow(std::size_t words)
    {
        std::vector<Word> bits(std::max(words, m_bits.size() + m_base), 0);
        std::copy(m_bits.begin(), m_bits.end(), bits.begin() + static_cast<std::ptrdiff_t>(m_base));
        m_bits = std::move(bits);
        m_base = 0;
    }

    void copyCompact(const StorageBitmap &other)
    {
        m_base = other.m_low;
        m_bits.assign(other.m_bits.begin() + static_cast<std::ptrdiff_t>(other.m_low - other.m_base),
                      other.m_bits.begin() + static_cast<std::ptrdiff_t>(other.m_high - other.m_base));
        m_low = other.m_low;
        m_high = other.m_high;
        m_count = other.m_count;
    }

    void widen(std::size_t low, std::size_t high)
    {
        if (m_high == m_low) {
            m_low = low;
            m_high = high;
            return;
        }
        m_low = std::min(m_low, low);
        m_high = std::max(m_high, high);
    }

    std::vector<Word> m_bits; // word w at w - m_base; zero outside [m_low, m_high)
    std::size_t m_base = 0;   // 0 once reserve() has run since the last copy
    std::size_t m_low = 0;
    std::size_t m_high = 0;
    std::size_t m_count = 0;
};

} // namespace rematlens
