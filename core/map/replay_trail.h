#pragma once

#include "../sim/replay.h"
#include "../sim/replay_position.h"
#include "../sim/replay_segment.h"
#include "../sim/run_result.h"

#include <memory>
#include <optional>
#include <vector>

namespace rematlens {

// The path one replay took, as copies of its state at some of its waypoints and the stretches
// between them. A replay under another budget follows the same path as long as each stretch's
// comparisons come out the same under its budget: it can start from the last copy that holds
// (reachable), and where its own path meets this one again in the same state it can take over
// the rest, or jump to the next copy that still holds. Its result is then the fold of the
// stretches it went through (resultUnder).
class ReplayTrail {
public:
    struct Entry {
        std::shared_ptr<const Replay> state; // regions caught up; copy it to continue
        ReplayPosition position;
        ReplaySegment segment;               // the stretch from the entry before (empty for the first)
    };

    void add(Entry entry) { m_entries.push_back(std::move(entry)); }
    // Entries [from, to] of another trail, which this one has joined.
    void addFrom(const ReplayTrail &other, std::size_t from, std::size_t to);
    // The stretch from the last entry to the end of the run, and how the run ended. A finished
    // trail is only read, so threads can share it.
    void finish(ReplaySegment last, RunResult end);
    // This trail's end is other's.
    void finishAs(const ReplayTrail &other);

    std::size_t size() const { return m_entries.size(); }
    const Entry &entry(std::size_t i) const { return m_entries[i]; }

    // The furthest entry reached from entry `from` through stretches that all compare the same
    // under budget; size() when the end is reached that way too.
    std::size_t reachable(std::size_t from, Bytes budget) const;
    // The first entry from `next` on at the replay's position (the trail is finished). A run's
    // waypoints come in the order of their steps, and so do a trail's entries: the caller keeps
    // `next` between the waypoints of one run, and it only moves forward, past the entries of
    // earlier steps; the replay's position is asked for only where an entry lies at its step.
    std::optional<std::size_t> find(const Replay &replay, std::size_t &next) const;
    // The result of the run this trail records, as a replay under budget that took this path.
    RunResult resultUnder(Bytes budget) const;

private:
    std::vector<Entry> m_entries;
    ReplaySegment m_last;
    RunResult m_end;
};

} // namespace rematlens
