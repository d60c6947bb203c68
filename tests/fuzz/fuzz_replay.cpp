// Whatever the reader accepts replays under small budgets with every runtime without a crash,
// and never holds more memory than the budget.
#include "core/sim/baseline.h"
#include "core/sim/policy_spec.h"
#include "core/sim/replay.h"
#include "core/trace/trace_reader.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace rematlens;
    const TraceReadResult read = parseTraceText(std::string_view(reinterpret_cast<const char *>(data), size), "fuzz");
    if (!read.ok() || read.program->ops.size() > 3000)
        return 0;
    const Baseline baseline = computeBaseline(*read.program);
    for (const char *policy : {"DTR", "DTREqClass", "LRU", "DTRUnopt", "ShortfallFirst", "DTRPenalty:b=0.5",
                               "expr:(compute + estar + eqclass) / (size * staleness) + neighbours / (1 + shortfall)"})
        for (RuntimeKind runtime : {RuntimeKind::Eager, RuntimeKind::Lazy, RuntimeKind::Banishing})
            for (double ratio : {0.3, 0.7}) {
                RunConfig config;
                PolicySpecError error;
                config.policy = *parsePolicySpec(policy, error);
                config.runtime = runtime;
                if (!configProblem(config).empty())
                    continue;
                config.budget = budgetForRatio(baseline, ratio);
                config.rematLimit = rematLimitFor(baseline, 2.0);
                const RunResult result = Replay(*read.program, config).run();
                if (result.maxMemory > config.budget)
                    std::abort();
            }
    return 0;
}
