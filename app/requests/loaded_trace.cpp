#include "app/requests/loaded_trace.h"

#include "app/formats/trace_source.h"
#include "app/requests/request_reporter.h"

namespace rematlens {

namespace {

bool g_strictTraces = false;

// The side file and the verdict on the trace's end; false (reported) when --strict refuses it.
bool checkCompleteness(const std::string &trace, LoadedTrace &loaded)
{
    if (trace != kDemoTraceName) {
        CaptureSideFileResult side = readCaptureSideFile(captureSideFilePath(trace));
        loaded.sideFile = std::move(side.sideFile);
        if (!side.error.message.empty())
            loaded.sideFileProblem = side.error.toString();
    }
    loaded.completeness = assessCompleteness(*loaded.program, loaded.sideFile ? &*loaded.sideFile : nullptr);
    if (loaded.completeness.complete())
        return true;
    if (g_strictTraces) {
        reportError(ExitBadInput, trace + ": " + loaded.completeness.problem + " (--strict refuses it; capture it again)");
        return false;
    }
    reportWarning(trace + ": " + loaded.completeness.problem + " (capture it again; --strict makes this an error)");
    return true;
}

} // namespace

void setStrictTraces(bool strict)
{
    g_strictTraces = strict;
}

std::optional<LoadedTrace> loadWithBaseline(const std::string &trace)
{
    TraceReadResult read = loadTrace(trace);
    if (!read.ok()) {
        reportError(ExitBadInput, read.error.toString());
        return std::nullopt;
    }
    LoadedTrace loaded{read.program, computeBaseline(*read.program), traceDisplayName(trace), {}, {}, {}};
    if (!checkCompleteness(trace, loaded))
        return std::nullopt;
    return loaded;
}

} // namespace rematlens
