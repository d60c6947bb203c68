#include "edge_story.h"

#include "event_divergence.h"

#include <algorithm>
#include <set>
#include <utility>

namespace rematlens {

namespace {

using Kind = ReplayEvent::Kind;

bool isMaterialization(Kind kind)
{
    return kind == Kind::Remat || kind == Kind::Compute;
}

// The eviction at `index` made room for the next materialization at its depth (the replay
// evicts for an allocation just before running its operator); the evictions since the
// previous materialization at that depth were for the same allocation.
std::optional<AvoidedEviction> avoidedAt(const Program &program, const std::vector<ReplayEvent> &events,
                                         std::size_t index, Bytes smallerBudget, Bytes largerBudget)
{
    const ReplayEvent &eviction = events[index];
    if (eviction.kind != Kind::Evict)
        return std::nullopt;
    AvoidedEviction a;
    a.event = index;
    a.step = eviction.step;
    a.victim = eviction.tensor;
    a.victimBytes = eviction.bytes;
    a.memoryInUse = eviction.memory;
    a.clock = eviction.clock;
    a.depth = eviction.depth;
    for (std::size_t i = index + 1; i < events.size(); ++i)
        if (isMaterialization(events[i].kind) && events[i].depth == eviction.depth) {
            a.tensor = events[i].tensor;
            a.needed = events[i].bytes;
            break;
        }
    for (std::size_t i = index; i-- > 0;) {
        if (events[i].depth == eviction.depth && isMaterialization(events[i].kind))
            break;
        a.evictionsBefore += events[i].kind == Kind::Evict && events[i].depth == eviction.depth;
    }
    a.demand = a.memoryInUse + a.needed;
    a.shortBySmaller = a.demand - smallerBudget;
    a.slackOfLarger = largerBudget - a.demand;
    (void)program;
    return a;
}

// When the storage evicted at events[from] is next rematerialized, and what ran in between.
void findReuse(const Program &program, const std::vector<ReplayEvent> &events, std::size_t from, LaterEviction &later)
{
    const StorageId storage = program.storageOf(later.tensor);
    for (std::size_t i = from + 1; i < events.size(); ++i) {
        const ReplayEvent &e = events[i];
        if (program.storageOf(e.tensor) == storage) {
            if (e.kind == Kind::Free) {
                later.releasedBeforeReuse = true;
                return;
            }
            if (e.kind == Kind::Remat) {
                later.reuseStep = e.step;
                later.reuseClock = e.clock;
                return;
            }
        }
        later.operatorsUntilReuse += e.kind == Kind::Compute;
        later.rematsUntilReuse += e.kind == Kind::Remat;
    }
}

// The program's next operator after the eviction's step that reads the storage (whatever the
// run did), and how many of the model's operators that is after it (the next one is 1).
void findNextUse(const Program &program, LaterEviction &later)
{
    const StorageId storage = program.storageOf(later.tensor);
    std::int64_t operators = 0;
    for (std::size_t s = std::size_t{later.step} + 1; s < program.schedule.size(); ++s) {
        const Step &step = program.schedule[s];
        if (step.kind != StepKind::Compute)
            continue;
        ++operators;
        const OpInfo &op = program.ops[step.id];
        for (std::uint32_t a = 0; a < op.argCount; ++a)
            if (program.storageOf(program.args[op.firstArg + a]) == storage) {
                later.neededAtStep = static_cast<std::uint32_t>(s);
                later.operatorsUntilNeeded = operators;
                return;
            }
    }
}

// The policy evictions of the larger run from `from` on of storages the program reads again and
// the smaller run does not evict in the same model step (from its own divergence on). The one
// told is the first whose storage the failing step rematerializes, else the first.
std::optional<LaterEviction> laterEviction(const Program &program, const std::vector<ReplayEvent> &smaller,
                                           std::size_t smallerFrom, const std::vector<ReplayEvent> &larger,
                                           std::size_t largerFrom, const std::set<StorageId> &inFailingStep)
{
    std::set<std::pair<std::uint32_t, StorageId>> evictedBySmaller;
    std::set<StorageId> everEvictedBySmaller;
    for (std::size_t i = smallerFrom; i < smaller.size(); ++i)
        if (smaller[i].kind == Kind::Evict) {
            evictedBySmaller.emplace(smaller[i].step, program.storageOf(smaller[i].tensor));
            everEvictedBySmaller.insert(program.storageOf(smaller[i].tensor));
        }
    std::optional<LaterEviction> told;
    std::int64_t differing = 0;
    for (std::size_t i = largerFrom; i < larger.size(); ++i) {
        const ReplayEvent &e = larger[i];
        if (e.kind != Kind::Evict || evictedBySmaller.contains({e.step, program.storageOf(e.tensor)}))
            continue;
        LaterEviction later;
        later.event = i;
        later.tensor = e.tensor;
        later.bytes = e.bytes;
        later.step = e.step;
        later.clock = e.clock;
        later.depth = e.depth;
        later.smallerEvictsItToo = everEvictedBySmaller.contains(program.storageOf(e.tensor));
        findNextUse(program, later);
        if (!later.neededAtStep)
            continue; // never read again: evicting it cost the run nothing
        ++differing;
        later.rematerializedInFailingStep = inFailingStep.contains(program.storageOf(e.tensor));
        if (!told || (!told->rematerializedInFailingStep && later.rematerializedInFailingStep)) {
            findReuse(program, larger, i, later);
            told = later;
        }
    }
    if (told)
        told->differingEvictions = differing;
    return told;
}

// Where the run stopped: the failure's step, or (over the compute limit) the step of its last
// materialization.
std::optional<std::pair<std::uint32_t, TensorId>> stopPoint(const Program &program, const RunRecording &recording,
                                                            const RunResult &result)
{
    if (result.failure) {
        for (TensorId t = 0; t < program.tensors.size(); ++t)
            if (program.tensors[t].name == result.failure->tensor)
                return std::pair{static_cast<std::uint32_t>(result.failure->step), t};
        return std::pair{static_cast<std::uint32_t>(result.failure->step), TensorId{0}};
    }
    for (std::size_t i = recording.events.size(); i-- > 0;)
        if (isMaterialization(recording.events[i].kind))
            return std::pair{recording.events[i].step, recording.events[i].tensor};
    return std::nullopt;
}

FailureCascade cascadeOf(const Program &program, const RunRecording &recording, const RunResult &result)
{
    FailureCascade c;
    const auto stop = stopPoint(program, recording, result);
    if (!stop)
        return c;
    c.step = stop->first;
    c.tensor = stop->second;
    c.depth = result.failure ? static_cast<std::uint32_t>(result.failure->depth) : 0;
    std::set<TensorId> seen;
    for (const ReplayEvent &e : recording.events) {
        if (e.step != c.step)
            continue;
        c.depth = std::max<std::uint32_t>(c.depth, e.depth);
        if (e.kind == Kind::Remat) {
            ++c.remats;
            c.rematBytes += e.bytes;
            c.rematCompute += program.ops[program.tensors[e.tensor].op].cost;
            if (seen.insert(e.tensor).second)
                c.rematerialized.push_back(e.tensor);
        } else if (e.kind == Kind::Evict) {
            ++c.evictions;
            c.evictedBytes += e.bytes;
        }
    }
    c.distinctTensors = static_cast<std::int64_t>(c.rematerialized.size());
    return c;
}

} // namespace

EdgeStory readEdgeStory(const Program &program, Bytes smallerBudget, const RunRecording &smaller,
                        const RunResult &smallerResult, Bytes largerBudget, const RunRecording &larger,
                        const RunResult &largerResult)
{
    EdgeStory story;
    story.smallerBudget = smallerBudget;
    story.largerBudget = largerBudget;
    story.smaller = smallerResult;
    story.larger = largerResult;
    story.failingIsSmaller = isFailure(smallerResult.outcome);
    story.diff = diffRuns(smaller, larger);
    const std::optional<EventDivergence> divergence = findEventDivergence(smaller, larger);
    const RunRecording &failingRecording = story.failingIsSmaller ? smaller : larger;
    story.cascade = cascadeOf(program, failingRecording, story.failing());
    std::set<StorageId> inFailingStep;
    if (!story.failingIsSmaller)
        for (TensorId t : story.cascade.rematerialized)
            inFailingStep.insert(program.storageOf(t));
    if (divergence && divergence->a) {
        story.avoided = avoidedAt(program, smaller.events, *divergence->a, smallerBudget, largerBudget);
        const std::size_t largerFrom = divergence->b.value_or(larger.events.size());
        story.later = laterEviction(program, smaller.events, *divergence->a, larger.events, largerFrom, inFailingStep);
    }
    if (story.later && !story.failingIsSmaller) {
        const LaterEviction &later = *story.later;
        story.laterNeededInFailingStep = later.rematerializedInFailingStep
                                         || (later.neededAtStep && *later.neededAtStep == story.cascade.step)
                                         || (later.reuseStep && *later.reuseStep == story.cascade.step);
    }
    return story;
}

} // namespace rematlens
