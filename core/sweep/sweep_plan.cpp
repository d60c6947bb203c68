#include "sweep_plan.h"

#include <iterator>

namespace rematlens {

namespace {

RunRequest baseRequest(const SweepSettings &settings, const Policy &policy, const Baseline &baseline)
{
    RunRequest request;
    request.trace = settings.trace;
    request.overheadLimit = settings.overheadLimit;
    request.config.policy = policy;
    request.config.runtime = settings.runtime;
    request.config.seed = settings.seed;
    request.config.rematLimit = rematLimitFor(baseline, settings.overheadLimit);
    request.config.keepResident = settings.keepResident;
    request.config.allocator = settings.allocator;
    request.keep = settings.keep;
    return request;
}

} // namespace

std::vector<RunRequest> planSweep(const SweepSettings &settings, const Baseline &baseline,
                                  const std::vector<GridPoint> &grid)
{
    std::vector<RunRequest> requests;
    requests.reserve(settings.policies.size() * grid.size());
    for (const Policy &policy : settings.policies)
        for (const GridPoint &point : grid) {
            RunRequest request = baseRequest(settings, policy, baseline);
            request.ratio = point.ratio;
            request.config.budget = budgetForRatio(baseline, point.ratio);
            requests.push_back(std::move(request));
        }
    return requests;
}

std::vector<RunRequest> planSweepRows(const SweepSettings &settings, const Baseline &baseline,
                                      const std::vector<GridPoint> &grid,
                                      const std::vector<AllocatorConfig> &allocators)
{
    std::vector<RunRequest> requests;
    requests.reserve(settings.policies.size() * allocators.size() * grid.size());
    SweepSettings row = settings;
    for (const Policy &policy : settings.policies)
        for (const AllocatorConfig &allocator : allocators) {
            row.policies = {policy};
            row.allocator = allocator;
            std::vector<RunRequest> planned = planSweep(row, baseline, grid);
            std::move(planned.begin(), planned.end(), std::back_inserter(requests));
        }
    return requests;
}

RunRequest planBudget(const SweepSettings &settings, const Policy &policy, const Baseline &baseline, Bytes budget)
{
    RunRequest request = baseRequest(settings, policy, baseline);
    request.config.budget = budget;
    request.ratio = baseline.memory > 0 ? static_cast<double>(budget) / static_cast<double>(baseline.memory) : 0.0;
    return request;
}

} // namespace rematlens
