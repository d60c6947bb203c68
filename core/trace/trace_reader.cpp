#include "trace_reader.h"

#include "instruction_decoder.h"
#include "program_builder.h"

#include <simdjson.h>

#include <filesystem>
#include <fstream>
#include <new>
#include <vector>

namespace rematlens {

namespace {

TraceReadResult failure(const std::string &file, int line, std::string message)
{
    return TraceReadResult{nullptr, ParseError{file, line, std::move(message)}};
}

bool isBlank(std::string_view line)
{
    return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

// text must be followed by simdjson::SIMDJSON_PADDING readable bytes.
TraceReadResult parsePadded(std::string_view text, const std::string &name)
{
    if (isBlank(text))
        return failure(name, 0, "the trace is empty (expected JSON lines with an \"INSTRUCTION\" field)");
    InstructionDecoder decoder;
    std::vector<Instruction> instructions;
    std::size_t start = 0;
    bool sawStart = false;
    int lineNumber = 0;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        ++lineNumber;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (isBlank(line))
            continue;
        std::optional<Instruction> ins = decoder.decode(line, lineNumber);
        if (!ins)
            return failure(name, lineNumber, decoder.error());
        if (!sawStart && ins->kind == Instruction::Kind::Annotate && ins->name == "START") {
            sawStart = true;
            start = instructions.size() + 1;
        }
        instructions.push_back(std::move(*ins));
    }
    ProgramBuilder builder(name);
    if (std::optional<ParseError> error = builder.build(instructions, start))
        return TraceReadResult{nullptr, *error};
    return TraceReadResult{std::make_shared<const Program>(builder.take()), {}};
}

} // namespace

TraceReadResult readTraceFile(const std::string &path)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        return failure(path, 0, "is a directory, expected a trace file");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return failure(path, 0, "cannot open the file (does it exist and is it readable?)");
    try {
        std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (in.bad())
            return failure(path, 0, "cannot read the file");
        return parseTraceText(content, path);
    } catch (const std::bad_alloc &) {
        return failure(path, 0, "the trace is too large for the memory available");
    }
}

TraceReadResult parseTraceText(std::string_view text, const std::string &displayName)
{
    try {
        simdjson::padded_string padded(text);
        return parsePadded(std::string_view(padded.data(), padded.size()), displayName);
    } catch (const std::bad_alloc &) {
        return failure(displayName, 0, "the trace is too large for the memory available");
    }
}

} // namespace rematlens
