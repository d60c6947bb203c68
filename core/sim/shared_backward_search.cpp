#include "shared_backward_search.h"

#include <algorithm>
#include <bit>

namespace rematlens {

namespace {

constexpr std::size_t kGroupSize = 64; // searches per walk: the bits of a mask

} // namespace

SharedBackwardSearch::SharedBackwardSearch(const Program &program, MaterialFlags &flags,
                                           const std::vector<Cost> &compute)
    : m_program(program)
    , m_flags(flags)
    , m_compute(compute)
    , m_members(kGroupSize)
{
}

// Sized at the first search, not at construction: most copies of a replay (the map walker's
// copies along its path) never search.
void SharedBackwardSearch::prepareScratch()
{
    if (!m_met.empty())
        return;
    const std::size_t storages = m_program.storages.size();
    m_mask.assign(storages, 0);
    m_met.assign((storages + 63) / 64, 0);
    m_rows.assign(kGroupSize * m_met.size(), 0);
}

bool SharedBackwardSearch::searchAll(const std::vector<Request> &requests, TensorId createdNow)
{
    prepareScratch();
    for (std::size_t first = 0; first < requests.size(); first += kGroupSize)
        if (!searchGroup(requests.data() + first, std::min(kGroupSize, requests.size() - first), createdNow))
            return false;
    return true;
}

// Collects what the searches meet, passes each search's bit from the bases through the evicted
// storages met in topological order (children before parents: descending ids), then hands every
// search its region.
bool SharedBackwardSearch::searchGroup(const Request *requests, std::size_t count, TensorId createdNow)
{
    if (!collect(requests, count, createdNow))
        return false;
    for (std::size_t i = 0; i < count; ++i)
        for (const StorageEdge &edge : m_program.storageNeighbours(requests[i].base, false)) {
            if (edge.visibleFrom >= requests[i].visibleBelow)
                break;
            m_mask[edge.storage] |= Mask{1} << i;
        }
    propagate(createdNow);
    const std::size_t storageCount = m_program.storages.size();
    const std::size_t words = m_met.size();
    for (std::size_t i = 0; i < count; ++i) {
        Region &out = *requests[i].out;
        Member &member = m_members[i];
        Word *row = m_rows.data() + i * words;
        out.clear();
        if (member.high > 0) {
            out.interiorFor(storageCount).assign(row, member.low, member.high);
            std::fill(row + member.low, row + member.high, Word{0});
        }
        out.compute = member.compute;
        member = {};
    }
    for (StorageId m : m_material)
        for (Mask bits = m_mask[m]; bits != 0; bits &= bits - 1) {
            const auto i = static_cast<std::size_t>(std::countr_zero(bits));
            if (m != requests[i].base) // the base is never its own frontier
                requests[i].out->frontierFor(storageCount).insert(m);
        }
    return true;
}

// Every storage the searches reach, with a zeroed mask: evicted ones into m_met, material ones
// (pinned aside) into m_material. False when an evicted storage has an evicted parent created
// after it (aliases can do that), which descending ids would not order.
bool SharedBackwardSearch::collect(const Request *requests, std::size_t count, TensorId createdNow)
{
    constexpr std::uint32_t kFlags = MaterialFlags::kFlagBits;
    const std::uint32_t stamp = m_flags.nextStamp();
    std::uint32_t *words = m_flags.words();
    m_material.clear();
    m_work.clear();
    bool ordered = true;
    auto meet = [&](StorageId u) {
        const std::uint32_t word = words[u];
        if ((word & MaterialFlags::kStampMask) == stamp)
            return;
        words[u] = (word & kFlags) | stamp;
        m_mask[u] = 0;
        if (!(word & MaterialFlags::kMaterialBit)) {
            m_met[u / 64] |= Word{1} << (u % 64);
            m_work.push_back(u);
        } else if (!(word & MaterialFlags::kPinnedBit)) {
            m_material.push_back(u);
        }
    };
    for (std::size_t i = 0; i < count; ++i)
        for (const StorageEdge &edge : m_program.storageNeighbours(requests[i].base, false)) {
            if (edge.visibleFrom >= requests[i].visibleBelow)
                break;
            meet(edge.storage);
        }
    for (std::size_t next = 0; next < m_work.size(); ++next) {
        const StorageId x = m_work[next];
        for (const StorageEdge &edge : m_program.storageNeighbours(x, false)) {
            if (edge.visibleFrom >= createdNow)
                break;
            ordered = ordered && (edge.storage < x || m_flags.material(edge.storage));
            meet(edge.storage);
        }
    }
    if (!ordered)
        for (StorageId x : m_work)
            m_met[x / 64] = 0;
    return ordered;
}

// Rows of m_rows get the storages of each search; descending ids make the first storage of a
// search its highest word and the last its lowest. The loop over (storage, search) pairs is the
// hot one, so it only adds and stores: a search's first storage is found per storage, by the
// searches not seen before.
void SharedBackwardSearch::propagate(TensorId createdNow)
{
    const Cost *compute = m_compute.data();
    const std::size_t words = m_met.size();
    Mask seen = 0;
    for (std::size_t w = words; w-- > 0;) {
        for (Word word = m_met[w]; word != 0;) {
            const auto bit = static_cast<std::size_t>(63 - std::countl_zero(word));
            word &= ~(Word{1} << bit);
            const auto x = static_cast<StorageId>(w * 64 + bit);
            const Mask mask = m_mask[x];
            for (Mask fresh = mask & ~seen; fresh != 0; fresh &= fresh - 1)
                m_members[static_cast<std::size_t>(std::countr_zero(fresh))].high = static_cast<std::uint32_t>(w + 1);
            seen |= mask;
            const Cost c = compute[x];
            Word *column = m_rows.data() + w;
            for (Mask bits = mask; bits != 0; bits &= bits - 1) {
                const auto i = static_cast<std::size_t>(std::countr_zero(bits));
                Member &member = m_members[i];
                member.low = static_cast<std::uint32_t>(w);
                member.compute += c;
                column[i * words] |= Word{1} << bit;
            }
            for (const StorageEdge &edge : m_program.storageNeighbours(x, false)) {
                if (edge.visibleFrom >= createdNow)
                    break;
                m_mask[edge.storage] |= mask;
            }
        }
        m_met[w] = 0;
    }
}

} // namespace rematlens
