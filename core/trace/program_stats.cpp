#include "program_stats.h"

namespace rematlens {

ProgramStats computeStats(const Program &program)
{
    ProgramStats stats;
    stats.operators = program.ops.size();
    stats.tensors = program.tensors.size();
    stats.storages = program.storages.size();
    stats.instructions = program.instructionCount;
    for (const OpInfo &op : program.ops) {
        stats.constants += op.isConstant ? 1 : 0;
        stats.backwardOperators += op.isBackward ? 1 : 0;
    }
    stats.calls = stats.operators - stats.constants;
    for (const TensorInfo &t : program.tensors)
        stats.aliases += t.isAlias ? 1 : 0;
    for (const Step &step : program.schedule)
        stats.outputs += step.kind == StepKind::Pin && step.line == 0 ? 1 : 0;
    return stats;
}

} // namespace rematlens
