#include "commands.h"

#include "run_report.h"
#include "trace_source.h"

#include "core/sim/replay.h"

#include <charconv>
#include <cmath>
#include <fstream>
#include <iostream>

namespace rematlens {

namespace {

// A decimal parsed to the nearest double (std::from_chars rounds correctly).
std::optional<double> parseDecimal(const std::string &text)
{
    double value = 0;
    const char *end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end || !std::isfinite(value))
        return std::nullopt;
    return value;
}

struct LoadedTrace {
    std::shared_ptr<const Program> program;
    Baseline baseline;
};

std::optional<LoadedTrace> load(const std::string &trace)
{
    TraceReadResult read = loadTrace(trace);
    if (!read.ok()) {
        reportError(ExitBadInput, read.error.toString());
        return std::nullopt;
    }
    return LoadedTrace{read.program, computeBaseline(*read.program)};
}

// Builds the run's configuration from the options; an error message on bad usage.
std::string configure(const RunOptions &options, const Baseline &baseline, RunRequest &request)
{
    const std::optional<Policy> policy = findPolicy(options.policy);
    if (!policy)
        return "unknown policy \"" + options.policy + "\" (rematlens policies lists them)";
    const std::optional<RuntimeKind> runtime = findRuntime(options.runtime);
    if (!runtime)
        return "unknown runtime \"" + options.runtime + "\" (expected eager, lazy or banishing)";
    const std::optional<double> overhead = parseDecimal(options.overheadLimit);
    if (!overhead || *overhead < 1.0)
        return "--overhead-limit expects a number of at least 1, got \"" + options.overheadLimit + "\"";
    request.config.policy = *policy;
    request.config.runtime = *runtime;
    request.config.seed = options.seed;
    request.overheadLimit = *overhead;
    request.config.rematLimit = rematLimitFor(baseline, *overhead);
    if (options.ratio) {
        const std::optional<double> ratio = parseDecimal(*options.ratio);
        if (!ratio || *ratio <= 0)
            return "--ratio expects a positive number, got \"" + *options.ratio + "\"";
        request.ratio = *ratio;
        request.config.budget = budgetForRatio(baseline, *ratio);
    } else {
        if (*options.budget < 0)
            return "--budget expects a non-negative number of bytes";
        request.config.budget = *options.budget;
        request.ratio = baseline.memory > 0 ? static_cast<double>(*options.budget) / static_cast<double>(baseline.memory)
                                            : 0.0;
    }
    return configProblem(request.config);
}

bool writeEvents(const std::string &path, const std::vector<ReplayEvent> &events, const Program &program)
{
    std::ofstream out(path);
    for (const ReplayEvent &event : events)
        out << eventToJson(event, program).dump() << '\n';
    out.flush();
    return static_cast<bool>(out);
}

} // namespace

int reportError(int status, const std::string &message)
{
    std::cerr << "rematlens: error: " << message << std::endl;
    return status;
}

int runInfoCommand(const InfoOptions &options)
{
    const std::optional<LoadedTrace> loaded = load(options.trace);
    if (!loaded)
        return ExitBadInput;
    const std::string name = traceDisplayName(options.trace);
    if (options.json)
        std::cout << infoToJson(name, *loaded->program, loaded->baseline).dump(2) << std::endl;
    else
        std::cout << infoToText(name, *loaded->program, loaded->baseline);
    return ExitOk;
}

int runRunCommand(const RunOptions &options)
{
    // Usage problems that need no trace are reported before reading it.
    if (!findPolicy(options.policy))
        return reportError(ExitBadUsage, "unknown policy \"" + options.policy + "\" (rematlens policies lists them)");
    const std::optional<LoadedTrace> loaded = load(options.trace);
    if (!loaded)
        return ExitBadInput;
    RunRequest request;
    request.trace = traceDisplayName(options.trace);
    const std::string problem = configure(options, loaded->baseline, request);
    if (!problem.empty())
        return reportError(ExitBadUsage, problem);
    std::vector<ReplayEvent> events;
    if (!options.eventsPath.empty())
        request.config.events = &events;
    const RunResult result = Replay(*loaded->program, request.config).run();
    if (!options.eventsPath.empty() && !writeEvents(options.eventsPath, events, *loaded->program))
        return reportError(ExitBadInput, "cannot write the events to " + options.eventsPath);
    if (options.json)
        std::cout << runToJson(request, result, loaded->baseline).dump() << std::endl;
    else
        std::cout << runToText(request, result, loaded->baseline);
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
    }
    return ExitOk;
}

} // namespace rematlens
