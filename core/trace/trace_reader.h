#pragma once

#include "parse_error.h"
#include "program.h"

#include <memory>
#include <string>
#include <string_view>

namespace rematlens {

// The outcome of reading a trace: a shared immutable program, or the error that stopped it.
struct TraceReadResult {
    std::shared_ptr<const Program> program;
    ParseError error;

    bool ok() const { return program != nullptr; }
};

// Reads a simrd JSON-lines trace. Everything before the first START annotation is checked
// but not replayed (a trace without START is replayed from its first line).
TraceReadResult readTraceFile(const std::string &path);

// The same, from text already in memory; displayName is used in errors.
TraceReadResult parseTraceText(std::string_view text, const std::string &displayName);

} // namespace rematlens
