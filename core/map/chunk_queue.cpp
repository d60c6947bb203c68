#include "chunk_queue.h"

#include <algorithm>

namespace rematlens {

namespace {

// A chunk is split only when its walker's own pace says at least this many replays remain:
// fewer would not pay for the replay that a split repeats.
constexpr double kMinReplaysToSplit = 4.0;

} // namespace

ChunkQueue::ChunkQueue(const std::vector<std::pair<ByteRange, Bytes>> &chunks) : m_initial(chunks.size())
{
    m_chunks.reserve(chunks.size() * 2);
    for (const auto &[bytes, rangeFrom] : chunks)
        m_chunks.push_back(Active{bytes.from, bytes.from, bytes.end, rangeFrom});
}

std::optional<ChunkQueue::Claim> ChunkQueue::next()
{
    std::unique_lock<std::mutex> lock(m_mutex);
    for (;;) {
        if (std::optional<Claim> c = claimUnstarted())
            return c;
        if (std::optional<Claim> c = splitBusiest())
            return c;
        if (!anyWalking())
            return std::nullopt;
        m_changed.wait(lock);
    }
}

Bytes ChunkQueue::end(std::size_t slot)
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    return m_chunks[slot].end;
}

Bytes ChunkQueue::advance(std::size_t slot, std::optional<Bytes> hi)
{
    Bytes next = 0;
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        coverUnstarted(slot, hi);
        Active &chunk = m_chunks[slot];
        next = hi ? std::min(*hi, chunk.end) : chunk.end;
        chunk.position = next;
        ++chunk.replays;
    }
    m_changed.notify_all();
    return next;
}

Bytes ChunkQueue::stop(std::size_t slot)
{
    Bytes end = 0;
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        Active &chunk = m_chunks[slot];
        chunk.walking = false;
        end = chunk.end;
    }
    m_changed.notify_all();
    return end;
}

// An interval reaching past the chunk's end covers the unstarted chunks after it: those it
// covers whole join this chunk (which then ends at once), the one it ends in starts at its hi.
// Their replays would only find the same interval again.
void ChunkQueue::coverUnstarted(std::size_t slot, std::optional<Bytes> hi)
{
    Active &chunk = m_chunks[slot];
    while (m_nextUnstarted < m_initial) {
        Active &after = m_chunks[m_nextUnstarted];
        if (after.from != chunk.end || after.rangeFrom != chunk.rangeFrom || (hi && *hi <= after.from))
            return;
        if (hi && *hi < after.end) {
            after.from = after.position = *hi;
            return;
        }
        chunk.end = after.end;
        ++m_nextUnstarted;
    }
}

std::optional<ChunkQueue::Claim> ChunkQueue::claimUnstarted()
{
    if (m_nextUnstarted == m_initial || likelyCovered(m_chunks[m_nextUnstarted]))
        return std::nullopt;
    return claim(m_nextUnstarted++);
}

// Whether the replay under way in the chunk just below is expected to cover this chunk's start
// (its interval as wide as the walk's intervals have been so far). Where intervals are wider than
// chunks (an allocator model's few wide intervals), starting such a chunk would only repeat that
// replay; waiting for it costs a thread one replay at most.
bool ChunkQueue::likelyCovered(const Active &unstarted) const
{
    const auto below = std::find_if(m_chunks.begin(), m_chunks.end(), [&](const Active &c) {
        return c.walking && c.end == unstarted.from && c.rangeFrom == unstarted.rangeFrom;
    });
    if (below == m_chunks.end())
        return false;
    Bytes resolved = 0;
    std::size_t replays = 0;
    for (const Active &c : m_chunks) {
        resolved += c.position - c.from;
        replays += c.replays;
    }
    if (replays == 0)
        return false;
    const Bytes perReplay = resolved / replays;
    return below->position + perReplay > unstarted.from;
}

// The busy chunk expected to need the most replays still (its replays per byte so far times
// the bytes it has left) gives up the upper half of what it has not started yet.
std::optional<ChunkQueue::Claim> ChunkQueue::splitBusiest()
{
    std::size_t best = m_chunks.size();
    double bestAhead = kMinReplaysToSplit;
    for (std::size_t i = 0; i < m_chunks.size(); ++i) {
        const Active &c = m_chunks[i];
        if (!c.walking || c.replays == 0 || c.end - c.position < 2)
            continue;
        const double pace = static_cast<double>(c.replays) / static_cast<double>(c.position - c.from);
        const double ahead = pace * static_cast<double>(c.end - c.position);
        if (ahead >= bestAhead) {
            bestAhead = ahead;
            best = i;
        }
    }
    if (best == m_chunks.size())
        return std::nullopt;
    Active &busy = m_chunks[best];
    const Bytes middle = busy.position + 1 + (busy.end - busy.position - 1) / 2; // above the replay under way
    Active half{middle, middle, busy.end, busy.rangeFrom};
    busy.end = middle;
    m_chunks.push_back(half);
    return claim(m_chunks.size() - 1);
}

bool ChunkQueue::anyWalking() const
{
    return std::any_of(m_chunks.begin(), m_chunks.end(), [](const Active &c) { return c.walking; });
}

ChunkQueue::Claim ChunkQueue::claim(std::size_t slot)
{
    Active &chunk = m_chunks[slot];
    chunk.walking = true;
    return Claim{slot, {chunk.from, chunk.end}, chunk.rangeFrom};
}

} // namespace rematlens
