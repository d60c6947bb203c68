#pragma once

#include "../trace/program.h"

#include <vector>

namespace rematlens {

// Per storage, whether it is material and whether it is pinned, packed with the stamp of the
// last search that reached it: the hot search loop tests and marks a storage with one word.
class MaterialFlags {
public:
    static constexpr std::uint32_t kMaterialBit = 0x80000000u;
    static constexpr std::uint32_t kPinnedBit = 0x40000000u;
    static constexpr std::uint32_t kFlagBits = kMaterialBit | kPinnedBit;
    static constexpr std::uint32_t kStampMask = 0x3fffffffu;

    explicit MaterialFlags(std::size_t storageCount) : m_words(storageCount, 0) {}

    bool material(StorageId s) const { return (m_words[s] & kMaterialBit) != 0; }
    bool pinned(StorageId s) const { return (m_words[s] & kPinnedBit) != 0; }
    void set(StorageId s, bool on) { m_words[s] = on ? m_words[s] | kMaterialBit : m_words[s] & ~kMaterialBit; }
    void setPinned(StorageId s) { m_words[s] |= kPinnedBit; }

    // A stamp no storage carries yet.
    std::uint32_t nextStamp()
    {
        if (++m_stamp > kStampMask) { // wrapped: forget the old stamps, keep the flags
            for (std::uint32_t &word : m_words)
                word &= kFlagBits;
            m_stamp = 1;
        }
        return m_stamp;
    }

    std::uint32_t *words() { return m_words.data(); }

    // The same storages material and pinned (search stamps aside).
    bool sameFlags(const MaterialFlags &other) const
    {
        if (m_words.size() != other.m_words.size())
            return false;
        for (std::size_t s = 0; s < m_words.size(); ++s)
            if ((m_words[s] & kFlagBits) != (other.m_words[s] & kFlagBits))
                return false;
        return true;
    }

private:
    std::vector<std::uint32_t> m_words;
    std::uint32_t m_stamp = 0;
};

} // namespace rematlens
