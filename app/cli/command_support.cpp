#include "command_support.h"

#include "trace_source.h"

#include "app/mpi/mpi_world.h"

#include "core/sim/policy_spec.h"
#include "core/sweep/decimal_grid.h"

#include <algorithm>
#include <iostream>
#include <unordered_map>

namespace rematlens {

int reportError(int status, const std::string &message)
{
    std::cerr << "rematlens: error: " << message << std::endl;
    return status;
}

int usageError(const MpiWorld &world, const std::string &problem)
{
    return world.isRoot() ? reportError(ExitBadUsage, problem) : ExitBadUsage;
}

namespace {

bool g_strictTraces = false;

// The side file and the verdict on the trace's end; false (reported) when --strict refuses it.
bool checkCompleteness(const std::string &trace, LoadedTrace &loaded)
{
    if (trace != kDemoTraceName) {
        CaptureSideFileResult side = readCaptureSideFile(captureSideFilePath(trace));
        loaded.sideFile = std::move(side.sideFile);
        if (!side.error.message.empty())
            loaded.sideFileProblem = side.error.toString();
    }
    loaded.completeness = assessCompleteness(*loaded.program, loaded.sideFile ? &*loaded.sideFile : nullptr);
    if (loaded.completeness.complete())
        return true;
    if (g_strictTraces) {
        reportError(ExitBadInput, trace + ": " + loaded.completeness.problem + " (--strict refuses it; capture it again)");
        return false;
    }
    std::cerr << "rematlens: warning: " << trace << ": " << loaded.completeness.problem
              << " (capture it again; --strict makes this an error)" << std::endl;
    return true;
}

} // namespace

void setStrictTraces(bool strict)
{
    g_strictTraces = strict;
}

std::optional<LoadedTrace> loadWithBaseline(const std::string &trace)
{
    TraceReadResult read = loadTrace(trace);
    if (!read.ok()) {
        reportError(ExitBadInput, read.error.toString());
        return std::nullopt;
    }
    LoadedTrace loaded{read.program, computeBaseline(*read.program), traceDisplayName(trace), {}, {}, {}};
    if (!checkCompleteness(trace, loaded))
        return std::nullopt;
    return loaded;
}

std::optional<std::vector<Policy>> resolvePolicies(const std::vector<std::string> &names, std::string &error)
{
    std::vector<Policy> policies;
    for (const std::string &name : names) {
        PolicySpecError problem;
        std::optional<Policy> policy = parsePolicySpec(name, problem);
        if (!policy) {
            error = problem.toString();
            return std::nullopt;
        }
        policies.push_back(*policy);
    }
    return policies;
}

std::optional<RuntimeKind> resolveRuntime(const std::string &name, std::string &error)
{
    std::optional<RuntimeKind> runtime = findRuntime(name);
    if (!runtime)
        error = "unknown runtime \"" + name + "\" (expected eager, lazy or banishing)";
    return runtime;
}

std::optional<double> resolveOverheadLimit(const std::string &text, std::string &error)
{
    std::optional<double> limit = DecimalGrid::parseRatio(text);
    if (!limit || *limit < 1.0) {
        error = "--overhead-limit expects a number of at least 1, got \"" + text + "\"";
        return std::nullopt;
    }
    return limit;
}

std::optional<std::vector<TensorId>> resolveKeep(const std::vector<std::string> &names, const Program &program,
                                                 std::string &error)
{
    std::vector<TensorId> ids;
    if (names.empty())
        return ids;
    std::unordered_map<std::string_view, TensorId> byName;
    for (TensorId t = 0; t < program.tensors.size(); ++t)
        byName.emplace(program.tensors[t].name, t);
    for (const std::string &name : names) {
        const auto found = byName.find(name);
        if (found == byName.end()) {
            error = "--keep: the trace has no tensor named \"" + name + "\"";
            return std::nullopt;
        }
        if (std::find(ids.begin(), ids.end(), found->second) == ids.end())
            ids.push_back(found->second);
    }
    return ids;
}

} // namespace rematlens
