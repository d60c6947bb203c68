#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rematlens {

// One line of a simrd trace, decoded but not yet interpreted.
struct Instruction {
    enum class Kind : std::uint8_t { Annotate, Constant, Memory, Alias, Call, Mutate, Copy, CopyFrom, Release };

    Kind kind = Kind::Annotate;
    int line = 0;
    std::string name;                 // NAME (operator name for CALL and MUTATE), DST for copies, ANNOTATION
    std::string source;               // SRC of COPY and COPY_FROM
    std::vector<std::string> results; // RESULT of CALL
    std::vector<std::string> args;    // ARGS of CALL and MUTATE
    std::vector<std::int64_t> mutated;// MUTATE argument indices
    std::int64_t number = 0;          // MEMORY, ALIAS or TIME
};

const char *instructionKindName(Instruction::Kind kind);

} // namespace rematlens
