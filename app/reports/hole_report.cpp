#include "app/reports/hole_report.h"

#include "app/reports/divergence_report.h"
#include "app/reports/plain_story_writer.h"
#include "app/reports/run_report.h"

#include <cstdio>

namespace rematlens {

namespace {

using Json = nlohmann::ordered_json;

Json optionalStep(const std::optional<std::uint32_t> &step)
{
    return step ? Json(*step) : Json();
}

Json avoidedJson(const AvoidedEviction &a, const HoleReportContext &c)
{
    return Json{{"step", a.step},
                {"line", c.lineOf(a.step)},
                {"operator", c.operatorOf(a.tensor)},
                {"tensor", c.tensorName(a.tensor)},
                {"memory_in_use", a.memoryInUse},
                {"needed", a.needed},
                {"demand", a.demand},
                {"short_by_smaller", a.shortBySmaller},
                {"slack_of_larger", a.slackOfLarger},
                {"evictions_before", a.evictionsBefore},
                {"victim", c.tensorName(a.victim)},
                {"victim_bytes", a.victimBytes},
                {"clock", a.clock},
                {"depth", a.depth},
                {"event", a.event}};
}

Json laterJson(const LaterEviction &l, const HoleReportContext &c)
{
    return Json{{"tensor", c.tensorName(l.tensor)},
                {"bytes", l.bytes},
                {"step", l.step},
                {"line", c.lineOf(l.step)},
                {"clock", l.clock},
                {"depth", l.depth},
                {"event", l.event},
                {"smaller_evicts_it_too", l.smallerEvictsItToo},
                {"rematerialized_in_failing_step", l.rematerializedInFailingStep},
                {"differing_evictions", l.differingEvictions},
                {"needed_at_step", optionalStep(l.neededAtStep)},
                {"operators_until_needed", l.neededAtStep ? Json(l.operatorsUntilNeeded) : Json()},
                {"rematerialized_at_step", optionalStep(l.reuseStep)},
                {"rematerialized_at_clock", l.reuseStep ? Json(l.reuseClock) : Json()},
                {"operators_until_rematerialized", l.reuseStep ? Json(l.operatorsUntilReuse) : Json()},
                {"remats_until_rematerialized", l.reuseStep ? Json(l.rematsUntilReuse) : Json()},
                {"released_before_reuse", l.releasedBeforeReuse}};
}

Json cascadeJson(const FailureCascade &f, const HoleReportContext &c)
{
    Json tensors = Json::array();
    for (TensorId t : f.rematerialized)
        tensors.push_back(c.tensorName(t));
    return Json{{"step", f.step},
                {"line", c.lineOf(f.step)},
                {"tensor", c.tensorName(f.tensor)},
                {"operator", c.operatorOf(f.tensor)},
                {"depth", f.depth},
                {"remats", f.remats},
                {"distinct_tensors", f.distinctTensors},
                {"remat_bytes", f.rematBytes},
                {"remat_compute", f.rematCompute},
                {"evictions", f.evictions},
                {"evicted_bytes", f.evictedBytes},
                {"rematerialized", tensors}};
}

Json rescueJson(const EdgeStory &s, const HoleReportContext &c)
{
    if (!s.rescued)
        return Json();
    Json rescues = Json::array();
    for (const Rescue &r : s.rescue.rescues)
        rescues.push_back(Json{{"tensor", c.tensorName(r.tensor)},
                               {"bytes", c.program.storages[c.program.storageOf(r.tensor)].size},
                               {"clock", r.result.clock},
                               {"overhead", r.overhead},
                               {"first_evicted_at", r.firstEvicted}});
    return Json{{"candidates", s.rescue.candidates},
                {"tried", s.rescue.tried},
                {"rescues", rescues},
                {"later_eviction_rescues", s.laterIsRescue},
                {"avoided_victim_rescues", s.victimIsRescue}};
}

Json runJson(Bytes budget, const RunResult &r, const HoleReportContext &c)
{
    Json j{{"budget", budget},
           {"ratio", ratioOfBaseline(c.baseline, budget)},
           {"result", std::string(outcomeName(r.outcome))},
           {"clock", r.clock},
           {"remat_compute", r.rematCompute},
           {"overhead", overheadOf(r, c.baseline)},
           {"evictions", r.evictions},
           {"remats", r.remats},
           {"max_memory", r.maxMemory}};
    if (r.failure) {
        j["failure"] = failureToJson(*r.failure);
        addAllocatorFailure(*r.failure, j["failure"]);
    }
    return j;
}

// The allocator's memory at the failing request: every segment with its free blocks.
Json layoutJson(const MemorySnapshot &m)
{
    Json segments = Json::array();
    for (const SnapshotSegment &segment : m.segments) {
        Json free = Json::array();
        for (const SnapshotBlock &b : segment.blocks)
            if (b.state == BlockView::State::Free)
                free.push_back(Json{{"address", b.address}, {"size", b.size}});
        segments.push_back(Json{{"base", segment.base},
                                {"size", segment.size},
                                {"pool", std::string(segmentPoolName(segment.pool))},
                                {"free_blocks", free}});
    }
    return Json{{"request", m.roundedRequest},
                {"pool", std::string(segmentPoolName(m.requestPool))},
                {"new_segment", m.newSegment ? Json(*m.newSegment) : Json()},
                {"reserved", m.reserved},
                {"allocated", m.allocated},
                {"capacity", m.capacity},
                {"largest_free_block", m.largestFreeBlock},
                {"segments", segments}};
}

} // namespace

std::string budgetText(Bytes budget, const Baseline &baseline)
{
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.9g", ratioOfBaseline(baseline, budget));
    return groupDigits(budget) + " B (" + ratio + ")";
}

Json edgeStoryJson(const EdgeStory &s, const HoleReportContext &c)
{
    Json j{{"smaller", runJson(s.smallerBudget, s.smaller, c)},
                {"larger", runJson(s.largerBudget, s.larger, c)},
                {"failing", s.failingIsSmaller ? "smaller" : "larger"},
                {"first_divergence", firstDivergenceJson(s.diff, c.program)},
                {"avoided_eviction", s.avoided ? avoidedJson(*s.avoided, c) : Json()},
                {"later_eviction", s.later ? laterJson(*s.later, c) : Json()},
                {"later_needed_in_failing_step", s.laterNeededInFailingStep},
                {"failure_step", cascadeJson(s.cascade, c)},
                {"rescue", rescueJson(s, c)},
                {"replays", s.replays}};
    if (s.failingLayout) // under an allocator model only, so the byte sum's stories stay as they were
        j["failing_layout"] = layoutJson(*s.failingLayout);
    return j;
}

Json holeAnatomyJson(const HoleAnatomy &h, const HoleReportContext &c)
{
    return Json{{"first_fail_byte", h.firstFail},
                {"last_fail_byte", h.lastFail},
                {"first_fail_ratio", ratioOfBaseline(c.baseline, h.firstFail)},
                {"last_fail_ratio", ratioOfBaseline(c.baseline, h.lastFail)},
                {"width", h.lastFail - h.firstFail + 1},
                {"mechanism", std::string(holeMechanismName(h.mechanism))},
                {"mechanism_sentence", std::string(holeMechanismSentence(h.mechanism))},
                {"given", h.given ? edgeStoryJson(*h.given, c) : Json()},
                {"lower_edge", edgeStoryJson(h.lower, c)},
                {"upper_edge", edgeStoryJson(h.upper, c)},
                {"replays", Json{{"walk", h.walkReplays},
                                 {"stories", h.storyReplays},
                                 {"rescue", h.rescueReplays},
                                 {"total", h.replays()}}}};
}

std::string edgeStoryText(const EdgeStory &s, const HoleReportContext &c)
{
    PlainStoryWriter writer(c.baseline);
    tellEdgeStory(s, c, writer);
    return writer.str();
}

std::string holeAnatomyText(const HoleAnatomy &h, const HoleReportContext &c)
{
    PlainStoryWriter writer(c.baseline);
    tellHoleAnatomy(h, c, writer);
    return writer.str();
}

} // namespace rematlens
