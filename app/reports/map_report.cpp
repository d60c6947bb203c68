#include "app/reports/map_report.h"

#include "app/reports/divergence_report.h"
#include "app/reports/run_report.h"

#include <cstdio>
#include <sstream>

namespace rematlens {

namespace {

using Json = nlohmann::ordered_json;

double ratioOf(const ExactMap &map, Bytes budget)
{
    const Bytes baseline = map.trace.baseline.memory;
    return baseline > 0 ? static_cast<double>(budget) / static_cast<double>(baseline) : 0.0;
}

std::string bytesAndRatio(const ExactMap &map, Bytes budget)
{
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%.9g", ratioOf(map, budget));
    return groupDigits(budget) + " B (" + ratio + ")";
}

std::string rangeText(const ExactMap &map)
{
    std::string text = "[";
    text += bytesAndRatio(map, map.range.from);
    text += ", ";
    text += bytesAndRatio(map, map.range.end - 1);
    return text + "]";
}

Json optionalByte(const std::optional<Bytes> &budget)
{
    return budget ? Json(*budget) : Json();
}

Json optionalRatio(const ExactMap &map, const std::optional<Bytes> &budget)
{
    return budget ? Json(ratioOf(map, *budget)) : Json();
}

std::string verdictText(const ExactMap &map, const MapSummary &s)
{
    switch (s.verdict) {
    case MonotoneVerdict::Monotone: return "monotone over " + rangeText(map);
    case MonotoneVerdict::NotMonotone:
        return "not monotone over " + rangeText(map) + ": " + std::to_string(s.failuresAboveFirstPass.size())
               + " failing stretch(es) above the first pass";
    case MonotoneVerdict::Undetermined:
        return "undetermined over " + rangeText(map) + ": nothing mapped fails above the first pass, but budgets "
               "there are unmapped";
    }
    return {};
}

Json monotoneJson(const MapSummary &s)
{
    return s.verdict == MonotoneVerdict::Undetermined ? Json() : Json(s.verdict == MonotoneVerdict::Monotone);
}

Json stretchJson(const ExactMap &map, const MapStretch &s)
{
    return Json{{"first", s.first},
                {"last", s.last},
                {"first_ratio", ratioOf(map, s.first)},
                {"last_ratio", ratioOf(map, s.last)},
                {"result", s.unmapped ? std::string("unmapped") : std::string(outcomeName(s.outcome))},
                {"intervals", s.intervals}};
}

Json holeJson(const ExactMap &map, const MapHole &h)
{
    return Json{{"first_fail_byte", h.firstFail},
                {"last_fail_byte", h.lastFail},
                {"first_fail_ratio", ratioOf(map, h.firstFail)},
                {"last_fail_ratio", ratioOf(map, h.lastFail)},
                {"last_pass_below_byte", h.firstFail - 1},
                {"first_pass_above_byte", h.lastFail + 1},
                {"width", h.lastFail - h.firstFail + 1}};
}

// What one more byte of budget avoided at the flipping comparison.
std::string avoided(const MapEdge &e, const Program &program)
{
    if (e.flip.victim == kNone)
        return "running out of memory (nothing was left to evict)";
    return "evicting " + program.tensors[e.flip.victim].name + " (eviction " + std::to_string(e.flip.evictionsBefore + 1)
           + " for this allocation)";
}

Json flipJson(const MapEdge &e, const Program &program)
{
    const Step &step = program.schedule[e.flip.step < program.schedule.size() ? e.flip.step : 0];
    const TensorInfo &tensor = program.tensors[e.flip.tensor];
    return Json{{"step", e.flip.step},
                {"line", e.flip.step < program.schedule.size() ? step.line : 0},
                {"operator", program.ops[tensor.op].name},
                {"tensor", tensor.name},
                {"memory_in_use", e.flip.memoryInUse},
                {"needed", e.flip.needed},
                {"demand", e.flip.memoryInUse + e.flip.needed},
                {"evictions_before", e.flip.evictionsBefore},
                {"one_more_byte_avoided", avoided(e, program)}};
}

Json edgeJson(const ExactMap &map, const MapEdge &e)
{
    const Program &program = *map.trace.program;
    return Json{{"below_byte", e.below},
                {"above_byte", e.above},
                {"below_ratio", ratioOf(map, e.below)},
                {"above_ratio", ratioOf(map, e.above)},
                {"below_result", std::string(outcomeName(e.belowRun.outcome))},
                {"above_result", std::string(outcomeName(e.aboveRun.outcome))},
                {"flip", flipJson(e, program)},
                {"first_divergence", firstDivergenceJson(e.diff, program)},
                {"after_divergence", Json{{"below", runTailJson(e.diff.tailA)}, {"above", runTailJson(e.diff.tailB)}}}};
}

Json policyJson(const ExactMap &map, const PolicyMap &p, bool withIntervals)
{
    const MapSummary &s = p.summary;
    Json j = p.identity.toJson();
    j["from_byte"] = map.range.from;
    j["to_byte"] = map.range.end - 1;
    j["from_ratio"] = ratioOf(map, map.range.from);
    j["to_ratio"] = ratioOf(map, map.range.end - 1);
    j["intervals"] = s.intervals;
    Json stretches = Json::array();
    for (const MapStretch &stretch : s.stretches)
        stretches.push_back(stretchJson(map, stretch));
    j["stretches"] = stretches;
    Json holes = Json::array();
    for (const MapHole &hole : s.holes)
        holes.push_back(holeJson(map, hole));
    j["holes"] = holes;
    j["first_pass_byte"] = optionalByte(s.firstPass);
    j["first_pass_ratio"] = optionalRatio(map, s.firstPass);
    j["stable_from_byte"] = optionalByte(s.stableFrom);
    j["stable_from_ratio"] = optionalRatio(map, s.stableFrom);
    Json unmapped = Json::array();
    for (const ByteRange &gap : s.unmapped)
        unmapped.push_back(Json{{"first", gap.from}, {"last", gap.end - 1}});
    j["unmapped"] = unmapped;
    j["monotone"] = monotoneJson(s);
    j["verdict"] = verdictText(map, s);
    Json edges = Json::array();
    for (const MapEdge &edge : p.edges)
        edges.push_back(edgeJson(map, edge));
    j["edges"] = edges;
    j["replays"] = p.replays;
    j["joins"] = p.joins;
    j["intervals_from_file"] = p.fromFile;
    j["seconds"] = p.seconds;
    j["threads"] = map.threads;
    if (map.ranks > 1) {
        j["ranks"] = map.ranks;
        j["busy_per_rank"] = p.busyPerRank;
    }
    if (withIntervals) {
        Json records = Json::array();
        for (const RunResult &r : p.intervals)
            records.push_back(mapRecordToJson(p.identity, r, map.trace.baseline));
        j["interval_records"] = records;
    }
    return j;
}

void printEdge(std::ostream &out, const ExactMap &map, const MapEdge &e)
{
    const Program &program = *map.trace.program;
    const TensorInfo &tensor = program.tensors[e.flip.tensor];
    out << "    edge " << groupDigits(e.below) << " | " << groupDigits(e.above) << " B: "
        << outcomeName(e.belowRun.outcome) << " below, " << outcomeName(e.aboveRun.outcome) << " from here\n";
    out << "      step " << e.flip.step << ", " << program.ops[tensor.op].name << " -> " << tensor.name << ": ";
    if (e.belowRun.allocation) // a model's comparison: what it compared is not live bytes plus outputs
        out << "the allocator model compared " << groupDigits(e.flip.memoryInUse + e.flip.needed)
            << " B with the budget (reserved bytes plus a new segment, a block's end in the arena, or allocated "
               "bytes); one more byte "
            << (e.flip.victim == kNone ? std::string("changed its answer") : "avoided " + avoided(e, program)) << "\n";
    else
        out << groupDigits(e.flip.memoryInUse) << " in use + " << groupDigits(e.flip.needed)
            << " needed = " << groupDigits(e.flip.memoryInUse + e.flip.needed) << " B; one more byte avoided "
            << avoided(e, program) << "\n";
    if (e.diff.firstDivergence) {
        out << "      first divergence at event " << *e.diff.firstDivergence << ":\n";
        out << "        below  " << describeDivergenceEvent(e.diff.a, program) << "\n";
        out << "        above  " << describeDivergenceEvent(e.diff.b, program) << "\n";
    } else {
        out << "      the two replays evict and rematerialize the same storages in the same order\n";
    }
}

void printPolicy(std::ostream &out, const ExactMap &map, const PolicyMap &p)
{
    const MapSummary &s = p.summary;
    out << p.identity.trace << "  " << p.identity.heuristic << ", " << runtimeName(p.config.runtime) << " runtime, overhead limit "
        << p.identity.overheadLimit << (p.identity.allocator == "sum" ? "" : ", allocator " + p.identity.allocator)
        << ", budgets " << rangeText(map) << "\n";
    out << "  intervals          " << s.intervals << " (" << p.replays << " replays, " << p.joins
        << " of them joined an earlier one's path, in " << p.seconds << " s on "
        << (map.ranks > 1 ? std::to_string(map.ranks) + " ranks x " : std::string()) << map.threads << " threads"
        << (p.fromFile ? ", " + std::to_string(p.fromFile) + " intervals read back" : "")
        << ")\n";
    out << "  stretches          " << s.stretches.size() << "\n";
    for (const MapStretch &stretch : s.stretches)
        out << "    " << (stretch.unmapped ? std::string("unmapped") : std::string(outcomeName(stretch.outcome))) << "  "
            << bytesAndRatio(map, stretch.first) << " .. " << bytesAndRatio(map, stretch.last) << ", "
            << stretch.intervals << " intervals\n";
    if (!p.intervals.empty() && p.intervals.front().outcome == Outcome::Impossible)
        out << "  impossible         " << impossibleReason(p.intervals.front()) << " (no replay)\n";
    out << "  first pass         " << (s.firstPass ? bytesAndRatio(map, *s.firstPass) : "none") << "\n";
    out << "  stable from        " << (s.stableFrom ? bytesAndRatio(map, *s.stableFrom) : "never") << "\n";
    for (std::size_t h = 0; h < s.holes.size(); ++h)
        out << "  hole " << h + 1 << ": fails " << bytesAndRatio(map, s.holes[h].firstFail) << " .. "
            << bytesAndRatio(map, s.holes[h].lastFail) << ", " << groupDigits(s.holes[h].lastFail - s.holes[h].firstFail + 1)
            << " B wide\n";
    for (const MapStretch &u : s.undecided)
        out << "  undecided: fails in part, unmapped in part (no hole until mapped) " << bytesAndRatio(map, u.first)
            << " .. " << bytesAndRatio(map, u.last) << "\n";
    if (!p.edges.empty())
        out << "  edges explained\n";
    for (const MapEdge &edge : p.edges)
        printEdge(out, map, edge);
    for (const ByteRange &gap : s.unmapped)
        out << "  unmapped           " << bytesAndRatio(map, gap.from) << " .. " << bytesAndRatio(map, gap.end - 1) << "\n";
    out << "  verdict            " << verdictText(map, s) << "\n";
}

} // namespace

Json exactMapJson(const ExactMap &map, bool withIntervals)
{
    Json maps = Json::array();
    for (const PolicyMap &p : map.maps)
        maps.push_back(policyJson(map, p, withIntervals));
    return Json{{"trace", map.trace.name}, {"interrupted", map.interrupted}, {"maps", maps}};
}

std::string exactMapText(const ExactMap &map, const std::string &outPath)
{
    std::ostringstream out;
    for (const PolicyMap &p : map.maps)
        printPolicy(out, map, p);
    if (!outPath.empty())
        out << "interval records in " << outPath << "\n";
    return out.str();
}

Json exactHolesJson(const ExactMap &map)
{
    const PolicyMap &p = map.maps.front();
    const MapSummary &s = p.summary;
    const auto point = [&](const std::optional<Bytes> &b, Outcome outcome) {
        return b ? Json{{"ratio", ratioOf(map, *b)}, {"budget", *b}, {"result", std::string(outcomeName(outcome))}} : Json();
    };
    Json j = p.identity.toJson();
    j["exact"] = true;
    j["from_budget"] = map.range.from;
    j["to_budget"] = map.range.end - 1;
    j["intervals"] = s.intervals;
    j["first_success"] = point(s.firstPass, Outcome::Pass);
    j["stable_from"] = point(s.stableFrom, Outcome::Pass);
    Json failures = Json::array();
    for (const MapStretch &f : s.failuresAboveFirstPass)
        failures.push_back(Json{{"first_budget", f.first}, {"last_budget", f.last},
                                {"result", std::string(outcomeName(f.outcome))}});
    j["failures_above_first_success"] = failures;
    Json holes = Json::array();
    for (const MapHole &h : s.holes)
        holes.push_back(Json{{"first_fail", ratioOf(map, h.firstFail)},
                             {"last_fail", ratioOf(map, h.lastFail)},
                             {"last_pass_below", ratioOf(map, h.firstFail - 1)},
                             {"first_pass_above", ratioOf(map, h.lastFail + 1)},
                             {"first_fail_budget", h.firstFail},
                             {"last_fail_budget", h.lastFail},
                             {"last_pass_below_budget", h.firstFail - 1},
                             {"first_pass_above_budget", h.lastFail + 1}});
    j["holes"] = holes;
    Json undecided = Json::array();
    for (const MapStretch &u : s.undecided)
        undecided.push_back(Json{{"from_budget", u.first}, {"to_budget", u.last}});
    j["undecided"] = undecided;
    Json gaps = Json::array();
    for (const ByteRange &gap : s.unmapped)
        gaps.push_back(Json{{"from_budget", gap.from}, {"to_budget", gap.end - 1}});
    j["unresolved"] = gaps;
    Json edges = Json::array();
    for (const MapEdge &edge : p.edges)
        edges.push_back(edgeJson(map, edge));
    j["edges"] = edges;
    j["monotone"] = monotoneJson(s);
    j["runs"] = p.replays;
    j["seconds"] = p.seconds;
    return j;
}

std::string exactHolesText(const ExactMap &map)
{
    const PolicyMap &p = map.maps.front();
    const MapSummary &s = p.summary;
    std::ostringstream out;
    out << p.identity.trace << "  " << p.identity.heuristic << ", " << runtimeName(p.config.runtime) << " runtime, exact map of "
        << rangeText(map) << ", " << s.intervals << " intervals\n";
    out << "  first success      " << (s.firstPass ? bytesAndRatio(map, *s.firstPass) : "none") << "\n";
    out << "  stable from        " << (s.stableFrom ? bytesAndRatio(map, *s.stableFrom) : "never") << "\n";
    out << "  failing stretches above the first success: " << s.failuresAboveFirstPass.size() << "\n";
    if (s.holes.empty())
        out << "  no holes\n";
    for (std::size_t h = 0; h < s.holes.size(); ++h) {
        const MapHole &hole = s.holes[h];
        out << "  hole " << h + 1 << ": fails " << bytesAndRatio(map, hole.firstFail) << " .. "
            << bytesAndRatio(map, hole.lastFail) << "; passes at " << groupDigits(hole.firstFail - 1) << " B and "
            << groupDigits(hole.lastFail + 1) << " B\n";
    }
    for (const ByteRange &gap : s.unmapped)
        out << "  unmapped " << bytesAndRatio(map, gap.from) << " .. " << bytesAndRatio(map, gap.end - 1) << "\n";
    out << "  " << verdictText(map, s) << "\n";
    out << "  " << p.replays << " replays in " << p.seconds << " s\n";
    return out.str();
}

} // namespace rematlens
