#pragma once

// Hand-built traces for the allocator models, from the allocator specification's worked
// examples (section 1.17 of the allocator model specification), shared by the suites that replay and map them.
#include "core/trace/trace_reader.h"

#include <QtGlobal>

#include <memory>
#include <sstream>
#include <string>

namespace allocator_traces {

using rematlens::Bytes;

constexpr Bytes MiB = Bytes{1} << 20;

// One operator of a trace: op_NAME reads ARGS (a JSON list's items) and makes NAME, of `size` bytes.
inline void writeCall(std::ostream &out, const char *name, const char *args, Bytes size)
{
    out << R"({"INSTRUCTION":"CALL","NAME":"op_)" << name << R"(","ARGS":[)" << args << R"(],"RESULT":[")" << name
        << R"("],"TIME":"10"})" << '\n';
    out << R"({"INSTRUCTION":"MEMORY","NAME":")" << name << R"(","MEMORY":")" << size << R"("})" << '\n';
    out << R"({"INSTRUCTION":"ALIAS","NAME":")" << name << R"(","ALIAS":"-1"})" << '\n';
}

// Specification 1.17 as a trace: a (60 MiB) is made and released, then y (20) and z (30), y is
// released and w (45) is made; w reads z when `wReadsZ`, so z stays locked while w is placed.
// Unless `releaseAtEnd`, z and w stay live to the end, where the program pins them.
inline std::string workedExampleTrace(bool wReadsZ, bool releaseAtEnd = false)
{
    std::ostringstream out;
    const auto call = [&](const char *name, const char *args, Bytes size) { writeCall(out, name, args, size); };
    const auto release = [&](const char *name) {
        out << R"({"INSTRUCTION":"RELEASE","NAME":")" << name << R"("})" << '\n';
    };
    out << R"({"INSTRUCTION":"ANNOTATE","ANNOTATION":"START"})" << '\n';
    call("a", "", 60 * MiB);
    release("a");
    call("y", "", 20 * MiB);
    call("z", "", 30 * MiB);
    release("y");
    call("w", wReadsZ ? R"("z")" : "", 45 * MiB);
    if (releaseAtEnd) {
        release("z");
        release("w");
    }
    return out.str();
}

// The second worked example: 5, 6 and 8 MiB live in one 20 MiB segment (the 8 MiB block takes
// the whole 9 MiB remainder), then 3 MiB, which reads all three, needs a segment of its own.
inline std::string twentyMiBSegmentTrace()
{
    std::ostringstream out;
    const auto call = [&](const char *name, const char *args, Bytes size) { writeCall(out, name, args, size); };
    out << R"({"INSTRUCTION":"ANNOTATE","ANNOTATION":"START"})" << '\n';
    call("a", "", 5 * MiB);
    call("b", R"("a")", 6 * MiB);
    call("c", R"("a","b")", 8 * MiB);
    call("d", R"("a","b","c")", 3 * MiB);
    return out.str();
}

inline std::shared_ptr<const rematlens::Program> parse(const std::string &text)
{
    rematlens::TraceReadResult read = rematlens::parseTraceText(text, "worked example");
    if (!read.ok())
        qFatal("%s", read.error.toString().c_str());
    return std::move(read.program);
}

} // namespace allocator_traces
