#include "app/requests/grid_options.h"

#include "app/requests/request_settings.h"

#include "core/sweep/decimal_grid.h"

namespace rematlens {

std::string resolveRunSettings(const std::vector<std::string> &policyNames, const std::string &runtimeName,
                               const std::string &overheadLimit, std::uint64_t seed, SweepSettings &settings)
{
    std::string error;
    const std::vector<std::string> names = policyNames.empty() ? std::vector<std::string>{"DTR"} : policyNames;
    std::optional<std::vector<Policy>> policies = resolvePolicies(names, error);
    if (!policies)
        return error;
    std::optional<RuntimeKind> runtime = resolveRuntime(runtimeName, error);
    if (!runtime)
        return error;
    std::optional<double> overhead = resolveOverheadLimit(overheadLimit, error);
    if (!overhead)
        return error;
    settings.policies = std::move(*policies);
    settings.runtime = *runtime;
    settings.overheadLimit = *overhead;
    settings.seed = seed;
    for (const Policy &policy : settings.policies) {
        RunConfig probe;
        probe.policy = policy;
        probe.runtime = settings.runtime;
        if (std::string problem = configProblem(probe); !problem.empty())
            return problem;
    }
    return {};
}

// Validates everything that needs no trace; fills settings and grid.
std::string prepareGrid(const GridOptions &options, SweepSettings &settings, std::vector<GridPoint> &grid)
{
    if (std::string problem = resolveRunSettings(options.policies, options.runtime, options.overheadLimit, options.seed,
                                                 settings);
        !problem.empty())
        return problem;
    if (std::string problem = resolveAllocator(options.allocator, settings.allocator); !problem.empty())
        return problem;
    std::string error;
    std::optional<std::vector<GridPoint>> points = DecimalGrid::make(options.from, options.to, options.step, error);
    if (!points)
        return error;
    if (options.wallLimit && !(*options.wallLimit > 0))
        return "--wall-limit expects a positive number of seconds";
    grid = std::move(*points);
    return {};
}

nlohmann::ordered_json gridScope(const GridOptions &options)
{
    return {{"grid", {{"from", options.from}, {"to", options.to}, {"step", options.step}}}};
}

std::string applyKeep(const std::vector<std::string> &names, const Program &program, SweepSettings &settings)
{
    std::string error;
    std::optional<std::vector<TensorId>> kept = resolveKeep(names, program, error);
    if (!kept)
        return error;
    settings.keepResident = std::move(*kept);
    settings.keep.clear();
    for (TensorId t : settings.keepResident)
        settings.keep.push_back(program.tensors[t].name);
    return {};
}

} // namespace rematlens
