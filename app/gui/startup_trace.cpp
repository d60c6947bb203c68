#include "startup_trace.h"

#include "app_settings.h"

#include "app/formats/trace_source.h"

#include <QFileInfo>

namespace rematlens {

QString startupTrace(const QString &requested, const AppSettings &settings)
{
    if (!requested.isEmpty())
        return requested;
    const QString demo = QString::fromLatin1(kDemoTraceName);
    if (!settings.reopenLastTrace())
        return demo;
    const QString last = settings.lastTrace();
    if (last == demo || !QFileInfo(last).isFile())
        return demo;
    return last;
}

} // namespace rematlens
