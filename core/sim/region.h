#pragma once

#include "../trace/program.h"
#include "stamp_set.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

namespace rematlens {

// The evicted storages reachable from a material storage in one direction through evicted
// storages only (interior, with its summed compute), and the material storages where that
// search stops (frontier, an unordered list).
//
// The interior is a bitmap over storage ids with the range of words that may hold a bit:
// storages of one region were created close together, so a union (the bulk of simrd's
// bookkeeping) touches a few words instead of walking the other region's members.
class Region {
public:
    using Word = std::uint64_t;

    std::vector<StorageId> frontier;
    Cost compute = 0;

    // Storages in the interior.
    std::size_t size() const { return m_count; }
    template <typename Visit>
    void forEachMember(Visit &&visit) const
    {
        for (std::size_t w = m_low; w < m_high; ++w)
            for (Word word = m_bits[w]; word != 0; word &= word - 1)
                visit(static_cast<StorageId>(w * 64 + static_cast<std::size_t>(std::countr_zero(word))));
    }

    void clear()
    {
        std::fill(m_bits.begin() + static_cast<std::ptrdiff_t>(m_low), m_bits.begin() + static_cast<std::ptrdiff_t>(m_high),
                  Word{0});
        m_low = m_high = 0;
        m_count = 0;
        frontier.clear();
        compute = 0;
    }

    // The interior becomes these distinct storages (after clear()); compute is left to the caller.
    void assignInterior(const StorageId *begin, const StorageId *end, std::size_t storageCount)
    {
        reserve(storageCount);
        for (const StorageId *x = begin; x != end; ++x) {
            const std::size_t w = *x / 64;
            m_bits[w] |= Word{1} << (*x % 64);
            widen(w, w + 1);
        }
        m_count = static_cast<std::size_t>(end - begin);
    }

    // The interior becomes the storages of a bitmap over storageCount storages whose bits lie
    // in words [lowWord, highWord) (after clear()), and compute their summed compute.
    template <typename ComputeOf>
    void assignInterior(const Word *bitmap, std::size_t lowWord, std::size_t highWord, std::size_t storageCount,
                        ComputeOf &&computeOf)
    {
        reserve(storageCount);
        for (std::size_t w = lowWord; w < highWord; ++w) {
            const Word word = bitmap[w];
            if (word == 0)
                continue;
            m_bits[w] = word;
            widen(w, w + 1);
            compute += sumOver(w, word, computeOf);
        }
    }

    // The interior becomes the `members` storages of a bitmap whose bits lie in words
    // [lowWord, highWord) (after clear()); compute is left to the caller.
    void assignInterior(const Word *bitmap, std::size_t lowWord, std::size_t highWord, std::size_t storageCount,
                        std::size_t members)
    {
        reserve(storageCount);
        std::copy(bitmap + lowWord, bitmap + highWord, m_bits.begin() + static_cast<std::ptrdiff_t>(lowWord));
        widen(lowWord, highWord);
        m_count = members;
    }

    // Takes in the evicted storage s, whose same-direction region is `theirs`: s leaves the
    // frontier, its frontier joins ours, and s plus its interior join our interior. Totals use
    // the storages' compute as it is now, and s is counted even were it already inside: simrd
    // does both.
    template <typename ComputeOf>
    void absorb(StorageId s, const Region &theirs, ComputeOf &&computeOf, StampSet &marks, std::size_t storageCount)
    {
        absorbFrontier(s, theirs, marks);
        reserve(storageCount);
        compute += computeOf(s);
        for (std::size_t w = theirs.m_low; w < theirs.m_high; ++w) {
            const Word added = theirs.m_bits[w] & ~m_bits[w];
            if (added == 0)
                continue;
            m_bits[w] |= added;
            compute += sumOver(w, added, computeOf);
        }
        if (theirs.m_high > theirs.m_low)
            widen(theirs.m_low, theirs.m_high);
        const std::size_t w = s / 64;
        const Word bit = Word{1} << (s % 64);
        if ((m_bits[w] & bit) == 0) {
            m_bits[w] |= bit;
            ++m_count;
            widen(w, w + 1);
        }
    }

private:
    static std::size_t wordsFor(std::size_t storageCount) { return (storageCount + 63) / 64; }

    void reserve(std::size_t storageCount)
    {
        if (m_bits.size() < wordsFor(storageCount))
            m_bits.resize(wordsFor(storageCount), 0);
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

    // The compute of the storages of one word, counting them into the interior.
    template <typename ComputeOf>
    Cost sumOver(std::size_t w, Word word, ComputeOf &computeOf)
    {
        Cost total = 0;
        for (; word != 0; word &= word - 1) {
            total += computeOf(static_cast<StorageId>(w * 64 + static_cast<std::size_t>(std::countr_zero(word))));
            ++m_count;
        }
        return total;
    }

    void absorbFrontier(StorageId s, const Region &theirs, StampSet &marks)
    {
        for (std::size_t i = 0; i < frontier.size(); ++i)
            if (frontier[i] == s) {
                frontier[i] = frontier.back();
                frontier.pop_back();
                break;
            }
        if (theirs.frontier.empty())
            return;
        marks.clear();
        for (StorageId x : frontier)
            marks.insert(x);
        for (StorageId x : theirs.frontier)
            if (marks.insert(x))
                frontier.push_back(x);
    }

    std::vector<Word> m_bits; // the interior; zero outside [m_low, m_high)
    std::size_t m_low = 0;    // words that may hold a bit: [m_low, m_high)
    std::size_t m_high = 0;
    std::size_t m_count = 0;
};

} // namespace rematlens
