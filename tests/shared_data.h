#pragma once

#include <QDir>
#include <QString>

// Where ../shared (traces and simrd's reference outputs) is, or an empty string.
inline QString sharedDirectory()
{
    const QString fromEnvironment = qEnvironmentVariable("REMATLENS_SHARED_DIR");
    const QString candidate = fromEnvironment.isEmpty() ? QStringLiteral(REMATLENS_DEFAULT_SHARED_DIR) : fromEnvironment;
    return QDir(candidate).exists(QStringLiteral("reference")) ? QDir(candidate).absolutePath() : QString();
}

inline QString publicTracePath(const QString &shared, const QString &traceFileName)
{
    return shared + QStringLiteral("/traces/dtr-2020/") + traceFileName;
}
