#include "figure_run_request.h"
#include "app/requests/loaded_trace.h"
#include "app/requests/request_settings.h"

#include "core/sweep/decimal_grid.h"

namespace rematlens {

std::string figureRunRequest(const FigureOptions &options, const LoadedTrace &trace,
                             const std::optional<std::string> &ratio, RunRequest &request)
{
    std::string error;
    const std::vector<std::string> names = options.policies.empty() ? std::vector<std::string>{"DTR"} : options.policies;
    const auto policies = resolvePolicies({names.front()}, error);
    const auto runtime = policies ? resolveRuntime(options.runtime, error) : std::nullopt;
    const auto overhead = runtime ? resolveOverheadLimit(options.overheadLimit, error) : std::nullopt;
    if (!overhead)
        return error;
    request.trace = trace.name;
    request.config.policy = policies->front();
    request.config.runtime = *runtime;
    request.config.seed = options.seed;
    request.overheadLimit = *overhead;
    request.config.rematLimit = rematLimitFor(trace.baseline, *overhead);
    if (std::string problem = resolveAllocator(options.allocator, request.config.allocator); !problem.empty())
        return problem;
    if (ratio) {
        const std::optional<double> parsed = DecimalGrid::parseRatio(*ratio);
        if (!parsed || *parsed <= 0)
            return "a budget ratio must be a positive number, got \"" + *ratio + "\"";
        request.ratio = *parsed;
        request.config.budget = budgetForRatio(trace.baseline, *parsed);
    } else if (options.budget) {
        if (*options.budget < 0)
            return "--budget expects a non-negative number of bytes";
        request.config.budget = *options.budget;
        request.ratio = trace.baseline.memory > 0 ? double(*options.budget) / double(trace.baseline.memory) : 0.0;
    } else {
        return "--ratio or --budget is required";
    }
    return configProblem(request.config);
}

} // namespace rematlens
