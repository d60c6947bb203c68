#include "app/requests/run_options.h"
#include "app/requests/loaded_trace.h"

#include "app/requests/request_settings.h"

#include "core/sweep/decimal_grid.h"

namespace rematlens {

std::string configureRun(const RunOptions &options, const LoadedTrace &trace, RunRequest &request)
{
    const Baseline &baseline = trace.baseline;
    std::string error;
    const std::optional<std::vector<Policy>> policy = resolvePolicies({options.policy}, error);
    const std::optional<RuntimeKind> runtime = policy ? resolveRuntime(options.runtime, error) : std::nullopt;
    const std::optional<double> overhead = runtime ? resolveOverheadLimit(options.overheadLimit, error) : std::nullopt;
    if (!overhead)
        return error;
    request.config.policy = policy->front();
    request.config.runtime = *runtime;
    request.config.seed = options.seed;
    request.overheadLimit = *overhead;
    request.config.rematLimit = rematLimitFor(baseline, *overhead);
    const std::optional<std::vector<TensorId>> kept = resolveKeep(options.keep, *trace.program, error);
    if (!kept)
        return error;
    request.config.keepResident = *kept;
    if (std::string problem = resolveAllocator(options.allocator, request.config.allocator); !problem.empty())
        return problem;
    for (TensorId t : *kept)
        request.keep.push_back(trace.program->tensors[t].name);
    if (options.ratio) {
        const std::optional<double> ratio = DecimalGrid::parseRatio(*options.ratio);
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

} // namespace rematlens
