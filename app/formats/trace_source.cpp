#include "app/formats/trace_source.h"

#include <QFile>

#include <filesystem>

// Q_INIT_RESOURCE must be used outside any namespace.
static void initResources()
{
    Q_INIT_RESOURCE(resources);
}

namespace rematlens {

void registerEmbeddedResources()
{
    static const bool registered = [] {
        initResources();
        return true;
    }();
    (void)registered;
}

TraceReadResult loadTrace(const std::string &pathOrDemo)
{
    if (pathOrDemo != kDemoTraceName)
        return readTraceFile(pathOrDemo);
    registerEmbeddedResources();
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
