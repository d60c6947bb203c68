#pragma once

#include "byte_range.h"

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <vector>

namespace rematlens {

// The chunks of one map walk, handed to the threads that walk them. When no chunk is left to
// start, an idle thread takes the upper half of the chunk with the most replays still ahead
// (judged by the replays per byte it has needed so far), so that all threads stay busy to the
// end of the walk instead of waiting for the one chunk that happens to be dense. A split costs
// one replay (the new half starts inside an interval the old half already replays) and moves
// no interval boundary: the halves meet exactly, as the chunks do. An interval that reaches
// past its chunk covers the unstarted chunks it spans, which are then not replayed; so a chunk
// that the replay under way below it is expected to cover is not started until that replay ends.
class ChunkQueue {
public:
    struct Claim {
        std::size_t slot = 0;
        ByteRange bytes;      // the chunk as claimed; its end may shrink while it is walked
        Bytes rangeFrom = 0;  // start of the range the chunk belongs to
    };

    // chunks: consecutive pieces of ranges, each with the start of its range.
    explicit ChunkQueue(const std::vector<std::pair<ByteRange, Bytes>> &chunks);

    // A chunk to walk: an unstarted one, else half of a busy one; waits while a busy chunk may
    // still become worth splitting; none when the walk is done.
    std::optional<Claim> next();
    // Where the walk of a claimed chunk stands: the budget it replays next. Returns the end of
    // the chunk's budgets as they stand now (a split may have moved it down).
    Bytes end(std::size_t slot);
    // A replay from the chunk's position resolved budgets up to `hi` (absent: unbounded);
    // returns where the walk continues, the chunk's end at most.
    Bytes advance(std::size_t slot, std::optional<Bytes> hi);
    // The chunk's walk stops here (finished, cancelled or timed out); returns its end.
    Bytes stop(std::size_t slot);

private:
    struct Active {
        Bytes from = 0;
        Bytes position = 0; // the budget being replayed
        Bytes end = 0;
        Bytes rangeFrom = 0;
        std::size_t replays = 0;
        bool walking = false;
    };

    void coverUnstarted(std::size_t slot, std::optional<Bytes> hi);
    std::optional<Claim> claimUnstarted();
    bool likelyCovered(const Active &unstarted) const;
    std::optional<Claim> splitBusiest();
    bool anyWalking() const;
    Claim claim(std::size_t slot);

    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::vector<Active> m_chunks; // unstarted ones first in order, split-off halves appended
    std::size_t m_nextUnstarted = 0;
    std::size_t m_initial = 0;
};

} // namespace rematlens
