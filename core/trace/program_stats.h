#pragma once

#include "program.h"

namespace rematlens {

// Counts that describe a program at a glance.
struct ProgramStats {
    std::size_t operators = 0;    // every operator: calls and constants
    std::size_t calls = 0;        // CALL and MUTATE lines: the operators that compute
    std::size_t constants = 0;    // CONSTANT lines (weights, inputs)
    std::size_t backwardOperators = 0;
    std::size_t tensors = 0;
    std::size_t aliases = 0;
    std::size_t storages = 0;
    std::size_t outputs = 0;      // tensors pinned at the end of the trace
    int instructions = 0;
};

ProgramStats computeStats(const Program &program);

} // namespace rematlens
