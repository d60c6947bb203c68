#pragma once

#include <QByteArray>
#include <QRegularExpression>
#include <QString>

// A results file's text with its provenance's command line blanked: files that two commands
// (a sweep and a merge, one process and an MPI job) wrote alike differ only there.
inline QByteArray withoutCommand(const QByteArray &content)
{
    static const QRegularExpression command(QStringLiteral("\"command\":\\[[^\\]]*\\]"));
    return QString::fromUtf8(content).replace(command, QStringLiteral("\"command\":[]")).toUtf8();
}
