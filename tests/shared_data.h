#pragma once

#include <QDir>
#include <QFileInfo>
#include <QString>
#include <QTest>

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

// One data row per public DTR trace of `shared` (from sharedDirectory()), named by its model (the
// file name up to the first '-') and holding its path, for a "trace" column.
inline void addPublicTraceRows(const QString &shared)
{
    const QDir dir(publicTracePath(shared, QString()));
    for (const QString &file : dir.entryList({QStringLiteral("*.log")}, QDir::Files, QDir::Name))
        QTest::newRow(qPrintable(file.section(QLatin1Char('-'), 0, 0))) << dir.filePath(file);
}

// One data row per trace of the project's own (traces/*.log), named "own" and the file's name,
// for a "trace" column: what a check runs on every checkout, ../shared or not.
inline void addOwnTraceRows()
{
    const QDir dir(QStringLiteral(REMATLENS_SOURCE_DIR "/traces"));
    for (const QString &file : dir.entryList({QStringLiteral("*.log")}, QDir::Files, QDir::Name))
        QTest::addRow("own %s", qPrintable(file.section(QLatin1Char('.'), 0, 0))) << dir.filePath(file);
}

// simrd's records kept in the project (tests/data/simrd-reference): own-traces/ and dtr-2020/.
inline QString projectReferenceDirectory(const QString &which)
{
    return QStringLiteral(REMATLENS_TEST_DATA "/simrd-reference/") + which;
}

// The project's own traces (traces/*.log).
inline QString ownTracePath(const QString &traceFileName)
{
    return QStringLiteral(REMATLENS_SOURCE_DIR "/traces/") + traceFileName;
}

// Where a public DTR trace is: ../shared/traces/dtr-2020, or where traces/download-dtr-traces.sh
// installs it (${XDG_DATA_HOME:-~/.local/share}/RematLens/traces/dtr-2020); empty when neither has it.
inline QString findPublicTrace(const QString &traceFileName)
{
    const QString shared = sharedDirectory();
    if (!shared.isEmpty() && QFileInfo::exists(publicTracePath(shared, traceFileName)))
        return publicTracePath(shared, traceFileName);
    const QString dataHome = qEnvironmentVariable("XDG_DATA_HOME", QDir::homePath() + QStringLiteral("/.local/share"));
    const QString installed = dataHome + QStringLiteral("/RematLens/traces/dtr-2020/") + traceFileName;
    return QFileInfo::exists(installed) ? installed : QString();
}
