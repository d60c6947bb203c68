#include "app/formats/map_record.h"

#include "app/reports/run_report.h"

namespace rematlens {

namespace {

std::string joined(const std::vector<std::string> &names)
{
    std::string text;
    for (const std::string &name : names)
        text += (text.empty() ? "" : " ") + name;
    return text;
}

nlohmann::ordered_json capacityFiguresToJson(const CapacityFigures &figures)
{
    return nlohmann::ordered_json{{"demand", figures.demand},
                                  {"largest_fixed_free_block", figures.largestFixedFreeBlock},
                                  {"free_tail_from", figures.freeTailFrom
                                                         ? nlohmann::ordered_json(*figures.freeTailFrom)
                                                         : nlohmann::ordered_json()},
                                  {"unit", figures.unit}};
}

std::optional<CapacityFigures> capacityFiguresFromJson(const nlohmann::ordered_json &failure)
{
    const auto f = failure.find("capacity_figures");
    if (f == failure.end() || !f->is_object())
        return std::nullopt;
    CapacityFigures figures;
    figures.demand = f->value("demand", Bytes{0});
    figures.largestFixedFreeBlock = f->value("largest_fixed_free_block", Bytes{0});
    if (const auto tail = f->find("free_tail_from"); tail != f->end() && tail->is_number_integer())
        figures.freeTailFrom = tail->get<Bytes>();
    figures.unit = std::max<Bytes>(1, f->value("unit", Bytes{1}));
    return figures;
}

} // namespace

nlohmann::ordered_json MapIdentity::toJson() const
{
    nlohmann::ordered_json j;
    j["trace"] = trace;
    j["heuristic"] = heuristic;
    j["runtime"] = runtime;
    j["overhead_limit"] = overheadLimit;
    if (!keep.empty())
        j["keep"] = keep;
    if (allocator != "sum")
        j["allocator"] = allocator;
    return j;
}

MapIdentity::Key MapIdentity::key() const
{
    return {heuristic, runtime, overheadLimit, joined(keep), allocator};
}

MapIdentity::Key MapIdentity::keyOf(const nlohmann::ordered_json &record)
{
    return {record.value("heuristic", std::string()), record.value("runtime", std::string()),
            record.value("overhead_limit", 2.0), joined(record.value("keep", std::vector<std::string>{})),
            record.value("allocator", std::string("sum"))};
}

std::string impossibleReason(const RunResult &result)
{
    if (!result.failure)
        return "below the smallest budget any replay can pass";
    const Failure &f = *result.failure;
    return "every budget below " + groupDigits(f.memoryInUse + f.bytesNeeded) + " B fails: " + f.operatorName + " -> " +
           f.tensor + " (line " + std::to_string(f.line) + ") needs " + groupDigits(f.memoryInUse) +
           " B of constants and arguments resident plus " + groupDigits(f.bytesNeeded) + " B of outputs";
}

nlohmann::ordered_json mapRecordToJson(const MapIdentity &identity, const RunResult &result, const Baseline &baseline)
{
    nlohmann::ordered_json j = identity.toJson();
    j["lo"] = result.interval.lo;
    j["hi"] = result.interval.hi ? nlohmann::ordered_json(*result.interval.hi) : nlohmann::ordered_json();
    j["lo_ratio"] = ratioOfBaseline(baseline, result.interval.lo);
    j["hi_ratio"] = result.interval.hi ? nlohmann::ordered_json(ratioOfBaseline(baseline, *result.interval.hi))
                                       : nlohmann::ordered_json();
    j["result"] = std::string(outcomeName(result.outcome));
    j["clock"] = result.clock;
    j["evictions"] = result.evictions;
    j["released_evictions"] = result.releasedEvictions;
    j["remats"] = result.remats;
    j["remat_compute"] = result.rematCompute;
    j["max_memory"] = result.maxMemory;
    j["memory_at_end"] = result.memoryAtEnd;
    j["overhead"] = overheadOf(result, baseline);
    if (result.allocation) {
        j["peak_reserved"] = result.allocation->peakReserved;
        j["peak_allocated"] = result.allocation->peakAllocated;
        j["cache_flushes"] = result.allocation->cacheFlushes;
    }
    if (result.failure) {
        Failure atLo = *result.failure;
        atLo.restateAt(result.interval.lo);
        j["failure"] = failureToJson(atLo, "bytes_short_at_lo");
        addAllocatorFailure(atLo, j["failure"]);
        if (atLo.capacityFigures)
            j["failure"]["capacity_figures"] = capacityFiguresToJson(*atLo.capacityFigures);
    }
    if (result.outcome == Outcome::Impossible)
        j["reason"] = impossibleReason(result);
    return j;
}

std::optional<RunResult> mapRecordFromJson(const nlohmann::ordered_json &record)
{
    if (!record.is_object() || !record.contains("lo") || !record["lo"].is_number_integer() || !record.contains("hi") ||
        !(record["hi"].is_null() || record["hi"].is_number_integer()))
        return std::nullopt;
    const std::optional<Outcome> outcome = findOutcome(record.value("result", std::string()));
    if (!outcome || !isResolved(*outcome))
        return std::nullopt;
    RunResult r;
    r.outcome = *outcome;
    r.interval.lo = record["lo"].get<Bytes>();
    if (!record["hi"].is_null())
        r.interval.hi = record["hi"].get<Bytes>();
    if (r.interval.hi && *r.interval.hi <= r.interval.lo)
        return std::nullopt;
    r.clock = record.value("clock", Cost{0});
    r.evictions = record.value("evictions", std::int64_t{0});
    r.releasedEvictions = record.value("released_evictions", std::int64_t{0});
    r.remats = record.value("remats", std::int64_t{0});
    r.rematCompute = record.value("remat_compute", Cost{0});
    r.maxMemory = record.value("max_memory", Bytes{0});
    r.memoryAtEnd = record.value("memory_at_end", Bytes{0});
    if (record.contains("peak_reserved"))
        r.allocation = AllocationSummary{record.value("peak_reserved", Bytes{0}),
                                         record.value("peak_allocated", Bytes{0}),
                                         record.value("cache_flushes", std::int64_t{0}),
                                         {}};
    if (const auto f = record.find("failure"); f != record.end() && f->is_object()) {
        r.failure = failureFromJson(*f, "bytes_short_at_lo");
        r.failure->capacityFigures = capacityFiguresFromJson(*f);
    }
    return r;
}

} // namespace rematlens
