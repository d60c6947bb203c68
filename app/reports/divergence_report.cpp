#include "app/reports/divergence_report.h"

#include "app/reports/run_report.h"

#include <sstream>

namespace rematlens {

nlohmann::ordered_json divergenceEventJson(const std::optional<ReplayEvent> &event, const Program &program)
{
    if (!event)
        return nlohmann::ordered_json();
    return nlohmann::ordered_json{{"kind", std::string(eventKindName(event->kind))},
                                  {"clock", event->clock},
                                  {"tensor", program.tensors[event->tensor].name},
                                  {"bytes", event->bytes},
                                  {"memory", event->memory},
                                  {"step", event->step},
                                  {"depth", event->depth}};
}

nlohmann::ordered_json firstDivergenceJson(const RunDiff &diff, const Program &program)
{
    if (!diff.firstDivergence)
        return nlohmann::ordered_json();
    return nlohmann::ordered_json{{"index", *diff.firstDivergence},
                                  {"a", divergenceEventJson(diff.a, program)},
                                  {"b", divergenceEventJson(diff.b, program)}};
}

nlohmann::ordered_json runTailJson(const RunTail &tail)
{
    return nlohmann::ordered_json{{"evictions", tail.evictions}, {"remats", tail.remats}, {"peak_depth", tail.peakDepth}};
}

std::string describeDivergenceEvent(const std::optional<ReplayEvent> &event, const Program &program)
{
    if (!event)
        return "(its events ended)";
    std::ostringstream out;
    out << eventKindName(event->kind) << " " << program.tensors[event->tensor].name << " (" << groupDigits(event->bytes)
        << " B) at clock " << groupDigits(event->clock) << ", step " << event->step << ", depth " << event->depth;
    return out.str();
}

std::string describeRunTail(const RunTail &tail)
{
    return std::to_string(tail.evictions) + " evictions, " + std::to_string(tail.remats) + " remats, peak depth "
           + std::to_string(tail.peakDepth);
}

} // namespace rematlens
