#pragma once

#include "../trace/program.h"

#include <bit>
#include <cstdint>
#include <vector>

namespace rematlens {

// Sums of the storages' compute over bitmaps of storage ids, four ids at a time: for each
// group of four storages a table holds the total of each of its 16 subsets. The regions built
// from backward closures are dense (about 27 of every 64 ids on ResNet-32), so sixteen lookups
// per word beat adding member by member. Integer totals, so the order of addition is free.
// The tables are built at the first sum and kept in step through changed().
class NibbleSums {
public:
    using Word = std::uint64_t;

    explicit NibbleSums(const std::vector<Cost> &compute)
        : m_compute(compute)
    {
    }

    // The compute of s has changed.
    void changed(StorageId s)
    {
        if (!m_table.empty())
            buildGroup(s / 4);
    }

    // The total compute of the storages set in words [low, high) of bits.
    Cost sum(const Word *bits, std::size_t low, std::size_t high)
    {
        if (m_table.empty())
            build();
        Cost total = 0;
        for (std::size_t w = low; w < high; ++w) {
            const Word word = bits[w];
            if (word == 0)
                continue;
            const Cost *tables = m_table.data() + w * 16 * 16; // 16 groups of 16 subsets
            for (unsigned group = 0; group < 16; ++group)
                total += tables[group * 16 + ((word >> (4 * group)) & 15)];
        }
        return total;
    }

private:
    void build()
    {
        const std::size_t groups = (m_compute.size() + 63) / 64 * 16; // whole words
        m_table.assign(groups * 16, 0);
        for (std::size_t g = 0; g * 4 < m_compute.size(); ++g)
            buildGroup(g);
    }

    void buildGroup(std::size_t group)
    {
        Cost *subsets = m_table.data() + group * 16;
        for (unsigned mask = 1; mask < 16; ++mask) {
            const std::size_t lowest = group * 4 + static_cast<std::size_t>(std::countr_zero(mask));
            const Cost own = lowest < m_compute.size() ? m_compute[lowest] : 0;
            subsets[mask] = subsets[mask & (mask - 1)] + own;
        }
    }

    const std::vector<Cost> &m_compute;
    std::vector<Cost> m_table; // per group of four storages, its 16 subset totals
};

} // namespace rematlens
