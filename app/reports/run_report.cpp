#include "app/reports/run_report.h"

#include "core/trace/program_stats.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace rematlens {

namespace {

std::string format(const char *pattern, double value)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, pattern, value);
    return buffer;
}


} // namespace

double overheadOf(const RunResult &result, const Baseline &baseline)
{
    return baseline.compute > 0 ? static_cast<double>(result.clock) / static_cast<double>(baseline.compute) : 0.0;
}

std::string fixedDigits(double value, int digits)
{
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", digits, value);
    return text;
}

std::string groupDigits(std::int64_t value)
{
    const std::string digits = std::to_string(value < 0 ? -value : value);
    std::string grouped = value < 0 ? "-" : "";
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            grouped += ',';
        grouped += digits[i];
    }
    return grouped;
}

nlohmann::ordered_json failureToJson(const Failure &f, const char *bytesShortKey)
{
    return nlohmann::ordered_json{{"step", f.step},
                                  {"line", f.line},
                                  {"operator", f.operatorName},
                                  {"tensor", f.tensor},
                                  {"bytes_needed", f.bytesNeeded},
                                  {"memory_in_use", f.memoryInUse},
                                  {bytesShortKey, f.bytesShort},
                                  {"depth", f.depth},
                                  {"locked_bytes", f.lockedBytes}};
}

void addAllocatorFailure(const Failure &f, nlohmann::ordered_json &failure)
{
    if (!f.oomKind)
        return;
    failure["oom_kind"] = std::string(oomKindName(*f.oomKind));
    failure["request"] = f.request;
    failure["largest_free_block"] = f.largestFreeBlock;
}

namespace {

void addAllocation(const RunRequest &request, const RunResult &result, nlohmann::ordered_json &j)
{
    if (request.config.allocator.isSum())
        return;
    j["allocator"] = allocatorKey(request.config.allocator);
    if (result.allocation) {
        j["peak_reserved"] = result.allocation->peakReserved;
        j["peak_allocated"] = result.allocation->peakAllocated;
        j["fragmentation"] = result.allocation->fragmentation();
        j["cache_flushes"] = result.allocation->cacheFlushes;
    }
}

} // namespace

Failure failureFromJson(const nlohmann::ordered_json &object, const char *bytesShortKey)
{
    Failure failure;
    failure.step = object.value("step", std::size_t{0});
    failure.line = object.value("line", 0);
    failure.operatorName = object.value("operator", std::string());
    failure.tensor = object.value("tensor", std::string());
    failure.bytesNeeded = object.value("bytes_needed", Bytes{0});
    failure.memoryInUse = object.value("memory_in_use", Bytes{0});
    failure.bytesShort = object.value(bytesShortKey, Bytes{0});
    failure.depth = object.value("depth", 0);
    failure.lockedBytes = object.value("locked_bytes", Bytes{0});
    if (const auto kind = object.find("oom_kind"); kind != object.end() && kind->is_string())
        failure.oomKind = findOomKind(kind->get<std::string>());
    failure.request = object.value("request", Bytes{0});
    failure.largestFreeBlock = object.value("largest_free_block", Bytes{0});
    return failure;
}

nlohmann::ordered_json runToJson(const RunRequest &request, const RunResult &result, const Baseline &baseline)
{
    nlohmann::ordered_json j;
    j["trace"] = request.trace;
    j["heuristic"] = request.config.policy.name;
    j["runtime"] = std::string(simrdRuntimeName(request.config.runtime));
    j["ratio"] = request.ratio;
    j["budget"] = request.config.budget;
    j["overhead_limit"] = request.overheadLimit;
    j["result"] = std::string(outcomeName(result.outcome));
    j["clock"] = result.clock;
    j["remat_compute"] = result.rematCompute;
    j["max_memory"] = result.maxMemory;
    j["memory_at_end"] = result.memoryAtEnd;
    j["evictions"] = result.evictions;
    j["released_evictions"] = result.releasedEvictions;
    j["remats"] = result.remats;
    j["heuristic_evals"] = result.heuristicEvals;
    j["overhead"] = overheadOf(result, baseline);
    j["seconds"] = result.seconds;
    if (!request.keep.empty())
        j["keep"] = request.keep;
    if (request.config.seed != 0 && request.config.policy.cost == CostTerm::Random)
        j["seed"] = request.config.seed; // its draws; the seed of other policies changes nothing
    addAllocation(request, result, j);
    if (result.failure) {
        j["failure"] = failureToJson(*result.failure);
        addAllocatorFailure(*result.failure, j["failure"]);
    }
    return j;
}

RunResult runFromJson(const nlohmann::ordered_json &record)
{
    RunResult r;
    r.outcome = findOutcome(record.value("result", std::string("cancelled"))).value_or(Outcome::Cancelled);
    r.clock = record.value("clock", Cost{0});
    r.rematCompute = record.value("remat_compute", Cost{0});
    r.maxMemory = record.value("max_memory", Bytes{0});
    r.memoryAtEnd = record.value("memory_at_end", Bytes{0});
    r.evictions = record.value("evictions", std::int64_t{0});
    r.releasedEvictions = record.value("released_evictions", std::int64_t{0});
    r.remats = record.value("remats", std::int64_t{0});
    r.heuristicEvals = record.value("heuristic_evals", std::int64_t{0});
    r.seconds = record.value("seconds", 0.0);
    if (const auto f = record.find("failure"); f != record.end() && f->is_object())
        r.failure = failureFromJson(*f);
    if (record.contains("peak_reserved"))
        r.allocation = AllocationSummary{record.value("peak_reserved", Bytes{0}), record.value("peak_allocated", Bytes{0}),
                                         record.value("cache_flushes", std::int64_t{0}), {}};
    return r;
}

nlohmann::ordered_json infoToJson(const std::string &trace, const Program &program, const Baseline &baseline)
{
    const ProgramStats counts = computeStats(program);
    nlohmann::ordered_json j;
    j["trace"] = trace;
    j["baseline_memory"] = baseline.memory;
    j["baseline_compute"] = baseline.compute;
    j["baseline_const"] = baseline.constMemory;
    j["baseline_bottleneck"] = baseline.bottleneck;
    j["impossible_below"] = baseline.constMemory + baseline.bottleneck;
    j["instructions"] = counts.instructions;
    j["operators"] = program.ops.size();
    j["calls"] = counts.calls;
    j["constants"] = counts.constants;
    j["backward_operators"] = counts.backwardOperators;
    j["tensors"] = program.tensors.size();
    j["aliases"] = counts.aliases;
    j["storages"] = program.storages.size();
    j["outputs"] = counts.outputs;
    j["baseline_seconds"] = baseline.seconds;
    return j;
}

std::string runToText(const RunRequest &request, const RunResult &result, const Baseline &baseline)
{
    std::ostringstream out;
    out << request.trace << "  " << request.config.policy.name << ", " << runtimeName(request.config.runtime)
        << " runtime, ratio " << request.ratio << " (budget " << groupDigits(request.config.budget) << " B)\n";
    if (!request.keep.empty()) {
        out << "  kept resident  ";
        for (const std::string &name : request.keep)
            out << " " << name;
        out << "\n";
    }
    out << "  result          " << outcomeName(result.outcome) << "\n";
    out << "  clock           " << groupDigits(result.clock) << "  (overhead "
        << format("%.4f", overheadOf(result, baseline)) << "x of " << request.overheadLimit << "x allowed)\n";
    out << "  remat compute   " << groupDigits(result.rematCompute) << "\n";
    out << "  peak memory     " << groupDigits(result.maxMemory) << " B\n";
    out << "  memory at end   " << groupDigits(result.memoryAtEnd) << " B\n";
    out << "  evictions       " << result.evictions << " by the policy, " << result.releasedEvictions
        << " on release\n";
    out << "  remats          " << result.remats << "\n";
    if (result.allocation) {
        out << "  allocator       " << allocatorKey(request.config.allocator) << ": peak reserved "
            << groupDigits(result.allocation->peakReserved) << " B, peak allocated "
            << groupDigits(result.allocation->peakAllocated) << " B, fragmentation "
            << format("%.4f", result.allocation->fragmentation()) << ", " << result.allocation->cacheFlushes
            << " cache flushes\n";
    }
    if (result.failure) {
        const Failure &f = *result.failure;
        out << "  failure         " << f.tensor << " (" << f.operatorName << ", trace line " << f.line
            << ") needed " << groupDigits(f.bytesNeeded) << " B with " << groupDigits(f.memoryInUse)
            << " B in use: " << groupDigits(f.bytesShort) << " B short at depth " << f.depth << "\n";
        if (f.oomKind)
            out << "  out of memory   " << oomKindName(*f.oomKind) << ": a request of " << groupDigits(f.request)
                << " B; the largest free block was " << groupDigits(f.largestFreeBlock) << " B\n";
    }
    out << "  replay time     " << format("%.3f", result.seconds * 1000.0) << " ms\n";
    return out.str();
}

std::string infoToText(const std::string &trace, const Program &program, const Baseline &baseline)
{
    const ProgramStats counts = computeStats(program);
    std::ostringstream out;
    out << trace << "\n";
    out << "  baseline memory     " << groupDigits(baseline.memory) << " B\n";
    out << "  baseline compute    " << groupDigits(baseline.compute) << "\n";
    out << "  constant memory     " << groupDigits(baseline.constMemory) << " B\n";
    out << "  bottleneck          " << groupDigits(baseline.bottleneck) << " B\n";
    out << "  impossible below    " << groupDigits(baseline.constMemory + baseline.bottleneck)
        << " B (constants + bottleneck)\n";
    out << "  instructions        " << program.instructionCount << "\n";
    out << "  operators           " << program.ops.size() << " (" << counts.calls << " calls, " << counts.constants << " constants, "
        << counts.backwardOperators << " backward)\n";
    out << "  tensors             " << program.tensors.size() << " (" << counts.aliases << " aliases) in "
        << program.storages.size() << " storages\n";
    out << "  outputs             " << counts.outputs << "\n";
    return out.str();
}

nlohmann::json eventToJson(const ReplayEvent &event, const Program &program)
{
    return nlohmann::json::array(
        {std::string(eventKindName(event.kind)), event.clock, program.tensors[event.tensor].name, event.bytes, event.memory});
}

} // namespace rematlens
