#include "fit_floor.h"

#include <algorithm>
#include <vector>

namespace rematlens {

std::optional<FitFloor> fitFloor(const Program &program, RuntimeKind runtime)
{
    if (runtime == RuntimeKind::Banishing)
        return std::nullopt;
    FitFloor best;
    Bytes constants = 0;
    std::vector<StorageId> seen;
    for (std::size_t i = 0; i < program.schedule.size(); ++i) {
        const Step &step = program.schedule[i];
        if (step.kind != StepKind::Compute)
            continue;
        const OpInfo &op = program.ops[step.id];
        Bytes arguments = 0;
        seen.clear();
        for (std::uint32_t a = 0; a < op.argCount; ++a) {
            const StorageId s = program.storageOf(program.args[op.firstArg + a]);
            if (program.storages[s].constant || std::find(seen.begin(), seen.end(), s) != seen.end())
                continue;
            seen.push_back(s);
            arguments += program.storages[s].size;
        }
        // A constant's own output is new memory here; it stays resident from now on.
        const Bytes demand = constants + arguments + op.totalSize;
        if (demand > best.bytes)
            best = FitFloor{demand, i, constants, arguments, op.totalSize};
        if (op.isConstant)
            constants += op.totalSize;
    }
    return best;
}

RunResult impossibleResult(const Program &program, const FitFloor &floor, BudgetInterval interval)
{
    RunResult r;
    r.outcome = Outcome::Impossible;
    r.interval = interval;
    const Step &step = program.schedule[floor.step];
    const OpInfo &op = program.ops[step.id];
    Failure f;
    f.step = floor.step;
    f.line = step.line;
    f.operatorName = op.name;
    f.tensor = op.outputCount ? program.tensors[op.firstOutput].name : std::string();
    f.bytesNeeded = floor.outputs;
    f.memoryInUse = floor.constants + floor.arguments;
    f.lockedBytes = f.memoryInUse;
    f.depth = 1;
    f.bytesShort = floor.bytes - interval.lo;
    r.failure = f;
    return r;
}

} // namespace rematlens
