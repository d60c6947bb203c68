#include "commands.h"
#include "app/requests/request_reporter.h"
#include "app/requests/loaded_trace.h"
#include "app/requests/request_settings.h"
#include "app/requests/run_options.h"

#include "app/formats/capture_info.h"
#include "app/formats/provenance.h"
#include "app/reports/run_report.h"
#include "app/formats/trace_source.h"

#include "core/sim/replay.h"
#include "core/sim/score_expression.h"

#include "core/sweep/decimal_grid.h"

#include <fstream>
#include <iostream>

namespace rematlens {

namespace {

// The run's provenance: its policy, runtime, limits, keep list, seed and budget.
std::optional<Provenance> runProvenance(const RunOptions &options, const RunRequest &request, std::string &error)
{
    std::optional<Provenance> p = Provenance::forTrace(options.trace, error);
    if (!p)
        return std::nullopt;
    p->set("policies", Provenance::Json::array({request.config.policy.name}));
    p->set("runtime", std::string(simrdRuntimeName(request.config.runtime)));
    p->set("overhead_limit", request.overheadLimit);
    p->set("keep", request.keep);
    p->set("seed", request.config.seed);
    p->set("budget", request.config.budget);
    if (!request.config.allocator.isSum())
        p->set("allocator", allocatorKey(request.config.allocator));
    if (options.ratio)
        p->set("ratio", *options.ratio);
    return p;
}

bool writeEvents(const std::string &path, const Provenance &provenance, const std::vector<ReplayEvent> &events,
                 const Program &program)
{
    std::ofstream out(path);
    out << provenance.jsonLine();
    for (const ReplayEvent &event : events)
        if (isReferenceKind(event.kind))
            out << eventToJson(event, program).dump() << '\n';
    out.flush();
    return static_cast<bool>(out);
}

} // namespace

int runInfoCommand(const InfoOptions &options)
{
    return printOutcome(executeInfo(options), options.json);
}

int runRunCommand(const RunOptions &options)
{
    RunRecording recording;
    const RunExecution run = executeRun(options, options.eventsPath.empty() ? nullptr : &recording);
    if (!run.outcome.ok())
        return run.outcome.status;
    if (!options.eventsPath.empty()) {
        std::string error;
        const std::optional<Provenance> provenance = runProvenance(options, run.request, error);
        if (!provenance)
            return reportError(ExitBadInput, error);
        if (!writeEvents(options.eventsPath, *provenance, recording.events, *run.trace->program))
            return reportError(ExitBadInput, "cannot write the events to " + options.eventsPath);
    }
    return printOutcome(run.outcome, options.json, -1);
}

int printOutcome(const RequestOutcome &outcome, bool json, int indent)
{
    if (!outcome.ok())
        return outcome.status;
    if (json)
        std::cout << outcome.json.dump(indent) << std::endl;
    else
        std::cout << outcome.text;
    return ExitOk;
}

int runPoliciesCommand()
{
    for (const Policy &policy : allPolicies()) {
        std::string aliases;
        for (const std::string &alias : policy.aliases)
            aliases += (aliases.empty() ? "" : ", ") + alias;
        std::cout << policy.name << (aliases.empty() ? "" : " (" + aliases + ")") << "\n    " << policy.summary
                  << (policy.runsOnBanishing() ? "" : "; not on the banishing runtime") << "\n";
        if (!policy.source.empty())
            std::cout << "    source: " << policy.source << "\n";
    }
    std::cout << "\nParametrized: DTRPenalty:b=NUMBER (b >= 0, default " << kDefaultPenalty << ").\n"
              << "Score expressions: expr:FORMULA, evicting the storage with the lowest score (muparser syntax:\n"
              << "+ - * / ^, min, max, abs, sqrt, log, a ? b : c, ...). Variables:\n";
    for (const ScoreVariableInfo &variable : scoreVariableInfos())
        std::cout << "    " << variable.name << std::string(12 - std::string_view(variable.name).size(), ' ')
                  << variable.meaning << "\n";
    std::cout << "DTR as an expression: expr:(compute + estar) / (size * staleness)\n";
    return ExitOk;
}

} // namespace rematlens
