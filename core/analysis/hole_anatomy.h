#pragma once

#include "edge_story.h"

#include "../sim/run_request.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace rematlens {

// How a hole comes about, from the story of its lower edge (where it begins).
enum class HoleMechanism {
    AvoidedEvictionCascadeOom, // avoided eviction, then out of memory inside a recomputation cascade
    AvoidedEvictionOom,        // avoided eviction, then out of memory at the model's own call
    AvoidedEvictionThrash,     // avoided eviction, then over the compute limit
    Fragmentation,             // an allocator model could not place the request though bytes were free
    Other,                     // anything else (e.g. the runs never part in their evictions)
};

std::string_view holeMechanismName(HoleMechanism mechanism); // "avoided-eviction-cascade-oom", ...
std::string_view holeMechanismSentence(HoleMechanism mechanism);
HoleMechanism classifyEdge(const EdgeStory &lower);

// A hole: failing budgets firstFail..lastFail with passes at firstFail - 1 and lastFail + 1.
struct HoleAnatomy {
    Bytes firstFail = 0;
    Bytes lastFail = 0;
    std::optional<EdgeStory> given; // the two budgets as asked, when a pair was given
    EdgeStory lower;                // firstFail - 1 | firstFail
    EdgeStory upper;                // lastFail | lastFail + 1
    HoleMechanism mechanism = HoleMechanism::Other;
    std::size_t walkReplays = 0;    // replays spent finding the hole's edges
    std::size_t storyReplays = 0;   // replays with a recorder, to tell the stories
    std::size_t rescueReplays = 0;  // replays of the rescue searches (their first replay included)
    std::size_t replays() const { return walkReplays + storyReplays + rescueReplays; }
};

struct AnatomyOptions {
    bool rescue = true; // run the rescue search at every story's failing budget
    const std::atomic<bool> *cancel = nullptr;
    RescueSearch::Progress rescueProgress;
    RescueSearch::Tried rescueTried; // each candidate's run as it finishes
};

// Explains holes of one configuration (request.config; its budget is set per run). The
// budget must enter the replay only through its comparisons (see mapProblem), so that a
// replay's interval says where the budgets that replay identically end.
class HoleAnatomist {
public:
    HoleAnatomist(const SweepRunner &runner, const Baseline &baseline, RunRequest request);

    // The hole holding a failing budget, found by walking its intervals down and up to the
    // first pass each side; nothing (and why) when the budget passes or no pass bounds it.
    struct Located {
        std::optional<std::pair<Bytes, Bytes>> hole; // firstFail, lastFail
        std::string problem;
        std::size_t replays = 0;
    };
    Located locate(Bytes failingBudget, const std::atomic<bool> *cancel = nullptr) const;

    // Both edges of the hole firstFail..lastFail, and (given) the story of a pair of budgets.
    HoleAnatomy explain(Bytes firstFail, Bytes lastFail, std::optional<std::pair<Bytes, Bytes>> pair,
                        const AnatomyOptions &options) const;

    // One boundary: the runs of two budgets, one passing and one failing.
    EdgeStory tell(Bytes smaller, Bytes larger, const AnatomyOptions &options) const;

    const RunRequest &request() const { return m_request; }
    RunRequest at(Bytes budget) const; // the request with this budget (and its ratio)

private:
    const SweepRunner &m_runner;
    const Baseline &m_baseline;
    RunRequest m_request;
};

} // namespace rematlens
