#include "memory_split.h"

#include <algorithm>

namespace rematlens {

namespace {

Bytes sumOf(const CaptureSideFile &side, const std::vector<std::string> &names)
{
    Bytes total = 0;
    for (const std::string &name : names)
        total += side.bytesOf(name);
    return total;
}

} // namespace

MemorySplit splitMemory(const CaptureSideFile &side, Bytes baselineMemory)
{
    MemorySplit split;
    split.baseline = baselineMemory;
    split.weights = sumOf(side, side.parameters) + sumOf(side, side.buffers);
    split.gradients = sumOf(side, side.gradients);
    split.optimizerState = sumOf(side, side.optimizerState);
    split.inputs = sumOf(side, side.inputs);
    split.activations = std::max<Bytes>(0, baselineMemory - split.resident() - split.inputs);
    return split;
}

} // namespace rematlens
