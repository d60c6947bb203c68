#include "hole_anatomy.h"

#include <tbb/parallel_invoke.h>

#include <algorithm>
#include <limits>

namespace rematlens {

std::string_view holeMechanismName(HoleMechanism mechanism)
{
    switch (mechanism) {
    case HoleMechanism::AvoidedEvictionCascadeOom: return "avoided-eviction-cascade-oom";
    case HoleMechanism::AvoidedEvictionOom: return "avoided-eviction-oom";
    case HoleMechanism::AvoidedEvictionThrash: return "avoided-eviction-thrash";
    case HoleMechanism::Fragmentation: return "fragmentation";
    case HoleMechanism::Other: return "other";
    }
    return "other";
}

std::string_view holeMechanismSentence(HoleMechanism mechanism)
{
    switch (mechanism) {
    case HoleMechanism::AvoidedEvictionCascadeOom:
        return "an avoided eviction, then out of memory in a recomputation cascade";
    case HoleMechanism::AvoidedEvictionOom:
        return "an avoided eviction, then out of memory at one of the model's own operators";
    case HoleMechanism::AvoidedEvictionThrash:
        return "an avoided eviction, then thrashing past the compute limit";
    case HoleMechanism::Fragmentation:
        return "fragmentation: the allocator model could not place a request the free bytes would hold";
    case HoleMechanism::Other: return "no avoided eviction opens it";
    }
    return "";
}

HoleMechanism classifyEdge(const EdgeStory &lower)
{
    const RunResult &failing = lower.failing();
    if (failing.failure && failing.failure->oomKind == OomKind::Fragmentation)
        return HoleMechanism::Fragmentation;
    if (!lower.avoided || lower.failingIsSmaller)
        return HoleMechanism::Other;
    if (failing.outcome == Outcome::Thrash)
        return HoleMechanism::AvoidedEvictionThrash;
    if (failing.outcome != Outcome::OutOfMemory)
        return HoleMechanism::Other;
    return failing.failure && failing.failure->depth > 1 ? HoleMechanism::AvoidedEvictionCascadeOom
                                                         : HoleMechanism::AvoidedEvictionOom;
}

HoleAnatomist::HoleAnatomist(const SweepRunner &runner, const Baseline &baseline, RunRequest request)
    : m_runner(runner), m_baseline(baseline), m_request(std::move(request))
{
    m_request.config.recording = nullptr;
}

RunRequest HoleAnatomist::at(Bytes budget) const
{
    RunRequest r = m_request;
    r.config.budget = budget;
    r.ratio = m_baseline.memory > 0 ? static_cast<double>(budget) / static_cast<double>(m_baseline.memory) : 0.0;
    return r;
}

HoleAnatomist::Located HoleAnatomist::locate(Bytes failingBudget, const std::atomic<bool> *cancel) const
{
    Located found;
    const auto replay = [&](Bytes budget) {
        ++found.replays;
        return m_runner.runOne(at(budget).config, cancel);
    };
    const RunResult start = replay(failingBudget);
    if (!isResolved(start.outcome)) {
        found.problem = "the replay at " + std::to_string(failingBudget) + " B did not finish";
        return found;
    }
    if (!isFailure(start.outcome)) {
        found.problem = "the run at " + std::to_string(failingBudget) + " B passes: it is in no hole";
        return found;
    }
    // Each replay stands for its whole interval, so the walk visits every interval of the hole once.
    Bytes firstFail = start.interval.lo;
    for (;;) {
        if (firstFail == 0) {
            found.problem = "every budget from 0 B to " + std::to_string(failingBudget) + " B fails: no pass below";
            return found;
        }
        const RunResult below = replay(firstFail - 1);
        if (!isResolved(below.outcome)) {
            found.problem = "the replay at " + std::to_string(firstFail - 1) + " B did not finish";
            return found;
        }
        if (below.outcome == Outcome::Pass)
            break;
        firstFail = below.interval.lo;
    }
    std::optional<Bytes> above = start.interval.hi;
    for (;;) {
        if (!above) {
            found.problem = "every budget from " + std::to_string(failingBudget) + " B up fails: no pass above";
            return found;
        }
        const RunResult next = replay(*above);
        if (!isResolved(next.outcome)) {
            found.problem = "the replay at " + std::to_string(*above) + " B did not finish";
            return found;
        }
        if (next.outcome == Outcome::Pass)
            break;
        above = next.interval.hi;
    }
    found.hole = std::pair{firstFail, *above - 1};
    return found;
}

EdgeStory HoleAnatomist::tell(Bytes smaller, Bytes larger, const AnatomyOptions &options) const
{
    RunRecording recordings[2];
    RunResult results[2];
    MemorySnapshot layouts[2];
    const auto replay = [&](int k, Bytes budget) {
        RunConfig config = at(budget).config;
        config.recording = &recordings[k];
        config.cancel = options.cancel;
        layouts[k].step = std::numeric_limits<std::size_t>::max(); // only at a failing request
        if (!config.allocator.isSum())
            config.snapshot = &layouts[k];
        results[k] = m_runner.runOne(config, options.cancel);
    };
    tbb::parallel_invoke([&] { replay(0, smaller); }, [&] { replay(1, larger); });
    EdgeStory story = readEdgeStory(m_runner.program(), smaller, recordings[0], results[0], larger, recordings[1],
                                    results[1]);
    story.replays = 2;
    if (const MemorySnapshot &layout = layouts[story.failingIsSmaller ? 0 : 1]; layout.taken && layout.atFailure)
        story.failingLayout = layout;
    const bool onePasses = (results[0].outcome == Outcome::Pass) != (results[1].outcome == Outcome::Pass);
    if (!options.rescue || !onePasses || !isFailure(story.failing().outcome))
        return story;
    story.rescued = true;
    story.rescue = RescueSearch(m_runner, m_baseline).search(at(story.failingBudget()), options.cancel,
                                                             options.rescueProgress, options.rescueTried);
    const Program &program = m_runner.program();
    const auto isRescue = [&](TensorId t) {
        return std::any_of(story.rescue.rescues.begin(), story.rescue.rescues.end(),
                           [&](const Rescue &r) { return program.storageOf(r.tensor) == program.storageOf(t); });
    };
    story.laterIsRescue = story.later && isRescue(story.later->tensor);
    story.victimIsRescue = story.avoided && isRescue(story.avoided->victim);
    return story;
}

HoleAnatomy HoleAnatomist::explain(Bytes firstFail, Bytes lastFail, std::optional<std::pair<Bytes, Bytes>> pair,
                                   const AnatomyOptions &options) const
{
    HoleAnatomy anatomy;
    anatomy.firstFail = firstFail;
    anatomy.lastFail = lastFail;
    const auto count = [&](const EdgeStory &story) {
        anatomy.storyReplays += story.replays;
        anatomy.rescueReplays += story.rescued ? story.rescue.tried + 1 : 0;
    };
    if (pair) {
        anatomy.given = tell(std::min(pair->first, pair->second), std::max(pair->first, pair->second), options);
        count(*anatomy.given);
    }
    anatomy.lower = tell(firstFail - 1, firstFail, options);
    count(anatomy.lower);
    anatomy.upper = tell(lastFail, lastFail + 1, options);
    count(anatomy.upper);
    anatomy.mechanism = classifyEdge(anatomy.lower);
    return anatomy;
}

} // namespace rematlens
