#pragma once

#include "instruction.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace rematlens {

// Decodes one JSON line of a simrd trace into an Instruction. The line must be followed by
// simdjson's padding (it always is inside a padded file buffer).
class InstructionDecoder {
public:
    InstructionDecoder();
    ~InstructionDecoder();
    InstructionDecoder(const InstructionDecoder &) = delete;
    InstructionDecoder &operator=(const InstructionDecoder &) = delete;

    // On failure returns nothing and sets error() to what was expected.
    std::optional<Instruction> decode(std::string_view line, int lineNumber);
    const std::string &error() const { return m_error; }

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
    std::string m_error;
};

} // namespace rematlens
