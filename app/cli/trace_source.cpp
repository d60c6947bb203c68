#include "trace_source.h"

#include <QFile>

#include <filesystem>

// The demo trace lives in a static library's resources, which must be registered by hand.
static void registerResources()
{
    static const bool registered = [] {
        Q_INIT_RESOURCE(resources);
        return true;
    }();
    (void)registered;
}

namespace rematlens {

TraceReadResult loadTrace(const std::string &pathOrDemo)
{
    if (pathOrDemo != kDemoTraceName)
        return readTraceFile(pathOrDemo);
    registerResources();
    QFile demo(QStringLiteral(":/traces/demo.log"));
    if (!demo.open(QIODevice::ReadOnly))
        return TraceReadResult{nullptr, ParseError{kDemoTraceName, 0, "the embedded demo trace is missing from this build"}};
    const QByteArray text = demo.readAll();
    return parseTraceText(std::string_view(text.constData(), static_cast<std::size_t>(text.size())), kDemoTraceName);
}

std::string traceDisplayName(const std::string &pathOrDemo)
{
    if (pathOrDemo == kDemoTraceName)
        return pathOrDemo;
    return std::filesystem::path(pathOrDemo).filename().string();
}

} // namespace rematlens
