#include "baseline.h"

#include "replay.h"

#include <cmath>
#include <limits>

namespace rematlens {

Baseline computeBaseline(const Program &program)
{
    RunConfig config;
    config.runtime = RuntimeKind::Banishing;
    config.policy = *findPolicy("LRU"); // never asked: the budget is unlimited
    config.measureBottleneck = true;
    const RunResult result = Replay(program, config).run();
    return Baseline{result.maxMemory, result.modelCompute, result.constMemory, result.bottleneck, result.seconds};
}

double ratioOfBaseline(const Baseline &baseline, Bytes budget)
{
    return baseline.memory > 0 ? static_cast<double>(budget) / static_cast<double>(baseline.memory) : 0.0;
}

Bytes budgetForRatio(const Baseline &baseline, double ratio)
{
    const double product = static_cast<double>(baseline.memory) * ratio;
    if (!(product >= 0))
        return 0;
    if (product >= 9.2e18)
        return std::numeric_limits<Bytes>::max();
    return static_cast<Bytes>(product); // truncation, like Python's int()
}

double rematLimitFor(const Baseline &baseline, double overheadLimit)
{
    return static_cast<double>(baseline.compute) * (overheadLimit - 1.0);
}

} // namespace rematlens
