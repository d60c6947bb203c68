#include "hole_report.h"

#include "divergence_report.h"
#include "run_report.h"

#include <cstdio>
#include <sstream>

namespace rematlens {

namespace {

using Json = nlohmann::ordered_json;

double ratioOf(Bytes budget, const Baseline &baseline)
{
    return baseline.memory > 0 ? static_cast<double>(budget) / static_cast<double>(baseline.memory) : 0.0;
}

const std::string &operatorOf(TensorId t, const HoleReportContext &c)
{
    return c.program.ops[c.program.tensors[t].op].name;
}

int lineOf(std::uint32_t step, const HoleReportContext &c)
{
    return step < c.program.schedule.size() ? c.program.schedule[step].line : 0;
}

Json optionalStep(const std::optional<std::uint32_t> &step)
{
    return step ? Json(*step) : Json();
}

Json avoidedJson(const AvoidedEviction &a, const HoleReportContext &c)
{
    return Json{{"step", a.step},
                {"line", lineOf(a.step, c)},
                {"operator", operatorOf(a.tensor, c)},
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
                {"line", lineOf(l.step, c)},
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
                {"line", lineOf(f.step, c)},
                {"tensor", c.tensorName(f.tensor)},
                {"operator", operatorOf(f.tensor, c)},
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
           {"ratio", ratioOf(budget, c.baseline)},
           {"result", std::string(outcomeName(r.outcome))},
           {"clock", r.clock},
           {"remat_compute", r.rematCompute},
           {"overhead", overheadOf(r, c.baseline)},
           {"evictions", r.evictions},
           {"remats", r.remats},
           {"max_memory", r.maxMemory}};
    if (r.failure)
        j["failure"] = failureToJson(*r.failure);
    return j;
}

std::string fixed(double value, int digits)
{
    return fixedDigits(value, digits);
}

// How the story names its two runs: by ratio, or by role when their ratios look the same.
std::string label(const EdgeStory &s, bool smaller, const HoleReportContext &c)
{
    char a[32];
    char b[32];
    std::snprintf(a, sizeof a, "%.6g", ratioOf(s.smallerBudget, c.baseline));
    std::snprintf(b, sizeof b, "%.6g", ratioOf(s.largerBudget, c.baseline));
    const bool failing = smaller == s.failingIsSmaller;
    if (std::string(a) == b)
        return failing ? "the failing run" : "the passing run";
    return std::string(smaller ? a : b) + " (" + std::string(outcomeName((smaller ? s.smaller : s.larger).outcome)) + ")";
}

void tellAvoided(std::ostream &out, const EdgeStory &s, const std::string &small, const std::string &large,
                 const HoleReportContext &c)
{
    if (s.avoided) {
        const AvoidedEviction &a = *s.avoided;
        const std::string &victim = c.tensorName(a.victim);
        out << "  1. avoided eviction: step " << a.step << " (line " << lineOf(a.step, c) << "), "
            << operatorOf(a.tensor, c) << " -> " << c.tensorName(a.tensor) << ",\n     " << groupDigits(a.memoryInUse)
            << " in use + " << groupDigits(a.needed) << " needed = " << groupDigits(a.demand) << " B.\n     " << small
            << " was " << groupDigits(a.shortBySmaller) << " B short: it evicted " << victim << " ("
            << groupDigits(a.victimBytes) << " B"
            << (a.evictionsBefore ? ", its eviction " + std::to_string(a.evictionsBefore + 1) + " there" : "")
            << ").\n     " << large << " had " << groupDigits(a.slackOfLarger) << " B to spare and kept " << victim
            << ".\n";
        return;
    }
    if (!s.diff.firstDivergence) {
        out << "  1. their evictions and rematerializations are the same throughout\n";
        return;
    }
    out << "  1. they part at event " << *s.diff.firstDivergence << " (no avoided eviction there):\n     " << small
        << ": " << describeDivergenceEvent(s.diff.a, c.program) << "\n     " << large << ": "
        << describeDivergenceEvent(s.diff.b, c.program) << "\n";
}

void tellLater(std::ostream &out, const EdgeStory &s, const std::string &small, const std::string &large,
               const HoleReportContext &c)
{
    if (!s.later) {
        if (s.avoided)
            out << "  2. later: " << large << " evicts nothing the program reads again that " << small
                << " keeps\n";
        return;
    }
    const LaterEviction &l = *s.later;
    out << "  2. later: " << large << " evicted " << c.tensorName(l.tensor) << " (" << groupDigits(l.bytes)
        << " B) at step " << l.step << ",\n     which " << small << " did not evict then (" << l.differingEvictions
        << " such eviction" << (l.differingEvictions == 1 ? "" : "s") << ");\n    ";
    if (l.reuseStep)
        out << " rematerialized at step " << *l.reuseStep << ", " << l.operatorsUntilReuse << " operator"
            << (l.operatorsUntilReuse == 1 ? "" : "s") << " later";
    else if (l.releasedBeforeReuse)
        out << " released before it was rematerialized";
    else
        out << " never rematerialized";
    out << (s.laterNeededInFailingStep ? " (the failing step needs it too)" : "") << ";\n     the program reads it next at step "
        << *l.neededAtStep << ", " << l.operatorsUntilNeeded << " operator" << (l.operatorsUntilNeeded == 1 ? "" : "s")
        << " later.\n";
}

void tellFailure(std::ostream &out, const EdgeStory &s, const std::string &failing, const HoleReportContext &c)
{
    const RunResult &r = s.failing();
    const FailureCascade &f = s.cascade;
    if (r.failure) {
        const Failure &x = *r.failure;
        out << "  3. failure: " << failing << " ran out of memory at step " << x.step << " (line " << x.line
            << "),\n     " << x.operatorName << " -> " << x.tensor << ": " << groupDigits(x.memoryInUse)
            << " in use + " << groupDigits(x.bytesNeeded) << " needed,\n     " << groupDigits(x.bytesShort)
            << " B short, at depth " << x.depth
            << (x.oomKind ? std::string(" (") + std::string(oomKindName(*x.oomKind)) + ")" : "") << ".\n";
    } else {
        out << "  3. failure: " << failing << " went over the compute limit at step " << f.step << ", materializing "
            << c.tensorName(f.tensor) << ":\n     remat compute " << groupDigits(r.rematCompute) << ", overhead "
            << fixed(overheadOf(r, c.baseline), 2) << "x.\n";
    }
    out << "     That step's cascade: " << f.remats << " remats of " << f.distinctTensors << " tensors ("
        << groupDigits(f.rematBytes) << " B, compute " << groupDigits(f.rematCompute) << "),\n     depth "
        << f.depth << ", " << f.evictions << " evictions (" << groupDigits(f.evictedBytes) << " B).\n";
}

void tellRescue(std::ostream &out, const EdgeStory &s, const std::string &failing, const HoleReportContext &c)
{
    if (!s.rescued)
        return;
    const auto &rescues = s.rescue.rescues;
    out << "  4. rescue: " << rescues.size() << " of the " << s.rescue.tried << " storages its policy evicted make "
        << failing << " pass, kept resident" << (rescues.empty() ? ".\n" : ";\n     best:");
    for (std::size_t i = 0; i < rescues.size() && i < 2; ++i)
        out << " " << c.tensorName(rescues[i].tensor) << " ("
            << groupDigits(c.program.storages[c.program.storageOf(rescues[i].tensor)].size) << " B, "
            << fixed(rescues[i].overhead, 4) << "x)" << (i + 1 < rescues.size() && i < 1 ? "," : "");
    if (!rescues.empty())
        out << (rescues.size() > 2 ? " ...\n" : "\n");
    if (s.later)
        out << "     the later eviction " << c.tensorName(s.later->tensor) << (s.laterIsRescue ? " is" : " is not")
            << " one of them";
    if (s.avoided)
        out << (s.later ? "; " : "     ") << "the avoided victim " << c.tensorName(s.avoided->victim)
            << (s.victimIsRescue ? " is" : " is not");
    if (s.later || s.avoided)
        out << ".\n";
}

} // namespace

std::string budgetText(Bytes budget, const Baseline &baseline)
{
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.9g", ratioOf(budget, baseline));
    return groupDigits(budget) + " B (" + ratio + ")";
}

Json edgeStoryJson(const EdgeStory &s, const HoleReportContext &c)
{
    return Json{{"smaller", runJson(s.smallerBudget, s.smaller, c)},
                {"larger", runJson(s.largerBudget, s.larger, c)},
                {"failing", s.failingIsSmaller ? "smaller" : "larger"},
                {"first_divergence", firstDivergenceJson(s.diff, c.program)},
                {"avoided_eviction", s.avoided ? avoidedJson(*s.avoided, c) : Json()},
                {"later_eviction", s.later ? laterJson(*s.later, c) : Json()},
                {"later_needed_in_failing_step", s.laterNeededInFailingStep},
                {"failure_step", cascadeJson(s.cascade, c)},
                {"rescue", rescueJson(s, c)},
                {"replays", s.replays}};
}

Json holeAnatomyJson(const HoleAnatomy &h, const HoleReportContext &c)
{
    return Json{{"first_fail_byte", h.firstFail},
                {"last_fail_byte", h.lastFail},
                {"first_fail_ratio", ratioOf(h.firstFail, c.baseline)},
                {"last_fail_ratio", ratioOf(h.lastFail, c.baseline)},
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
    std::ostringstream out;
    const std::string small = label(s, true, c);
    const std::string large = label(s, false, c);
    tellAvoided(out, s, small, large, c);
    tellLater(out, s, small, large, c);
    if (isFailure(s.failing().outcome)) {
        tellFailure(out, s, s.failingIsSmaller ? small : large, c);
        tellRescue(out, s, s.failingIsSmaller ? small : large, c);
    }
    return out.str();
}

std::string holeAnatomyText(const HoleAnatomy &h, const HoleReportContext &c)
{
    std::ostringstream out;
    out << "hole " << budgetText(h.firstFail, c.baseline) << " .. " << budgetText(h.lastFail, c.baseline) << ", "
        << groupDigits(h.lastFail - h.firstFail + 1) << " B wide\n  mechanism: " << holeMechanismSentence(h.mechanism)
        << "\n";
    if (h.given)
        out << "the budgets asked, " << budgetText(h.given->smallerBudget, c.baseline) << " and "
            << budgetText(h.given->largerBudget, c.baseline) << ":\n"
            << edgeStoryText(*h.given, c);
    out << "lower edge, " << groupDigits(h.firstFail - 1) << " | " << groupDigits(h.firstFail) << " B (where it begins):\n"
        << edgeStoryText(h.lower, c);
    out << "upper edge, " << groupDigits(h.lastFail) << " | " << groupDigits(h.lastFail + 1) << " B (where it ends):\n"
        << edgeStoryText(h.upper, c);
    out << "replays: " << h.walkReplays << " to find the edges, " << h.storyReplays << " to tell the stories, "
        << h.rescueReplays << " in the rescue searches; " << h.replays() << " in all\n";
    return out.str();
}

} // namespace rematlens
