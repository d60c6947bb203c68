// Any bytes in: a program or an error naming a line, never a crash, a hang or a sanitizer report.
#include "core/trace/trace_reader.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    const rematlens::TraceReadResult result = rematlens::parseTraceText(text, "fuzz");
    if (!result.ok() && result.error.message.empty())
        std::abort(); // every error says what was expected
    return 0;
}
