#pragma once

#include "../trace/program.h"

#include <bit>
#include <cstdint>
#include <vector>

namespace rematlens {

// Sums of the storages' compute over bitmaps of storage ids, a byte of ids at a time: for each
// group of eight storages a table holds the total of each of its 256 subsets. The regions built
// from backward closures are dense (about 27 of every 64 ids on ResNet-32), so eight lookups
// per word beat adding member by member (and beat sixteen lookups in tables of four ids: the
// lookups' own instructions were the cost, not the larger tables' cache misses; measured on
// MSPS maps of InceptionV4). Integer totals, so the order of addition is free. The tables are
// built at the first sum and kept in step through changed().
class SubsetSums {
public:
    using Word = std::uint64_t;

    explicit SubsetSums(const std::vector<Cost> &compute)
        : m_compute(compute)
    {
    }

    // The compute of s has changed.
    void changed(StorageId s)
    {
        if (m_table.empty())
            return;
        // Every subset holding s gains what s gained; the singleton {s} holds its old compute.
        Cost *subsets = m_table.data() + s / kGroupBits * kSubsets;
        const unsigned own = 1u << (s % kGroupBits);
        const Cost gained = m_compute[s] - subsets[own];
        for (unsigned mask = own; mask < kSubsets; mask = (mask + 1) | own)
            subsets[mask] += gained;
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
            const Cost *tables = m_table.data() + w * kGroupsPerWord * kSubsets;
            for (unsigned group = 0; group < kGroupsPerWord; ++group)
                total += tables[group * kSubsets + ((word >> (kGroupBits * group)) & (kSubsets - 1))];
        }
        return total;
    }

private:
    static constexpr unsigned kGroupBits = 8;
    static constexpr unsigned kSubsets = 1u << kGroupBits;
    static constexpr unsigned kGroupsPerWord = 64 / kGroupBits;

    void build()
    {
        const std::size_t groups = (m_compute.size() + 63) / 64 * kGroupsPerWord; // whole words
        m_table.assign(groups * kSubsets, 0);
        for (std::size_t g = 0; g * kGroupBits < m_compute.size(); ++g)
            buildGroup(g);
    }

    void buildGroup(std::size_t group)
    {
        Cost *subsets = m_table.data() + group * kSubsets;
        for (unsigned mask = 1; mask < kSubsets; ++mask) {
            const std::size_t lowest = group * kGroupBits + static_cast<std::size_t>(std::countr_zero(mask));
            const Cost own = lowest < m_compute.size() ? m_compute[lowest] : 0;
            subsets[mask] = subsets[mask & (mask - 1)] + own;
        }
    }

    const std::vector<Cost> &m_compute;
    std::vector<Cost> m_table; // per group of eight storages, its 256 subset totals
};

} // namespace rematlens
