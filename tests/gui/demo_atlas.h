#pragma once

// Bundled maps for the tests that need an atlas: the demo trace mapped by `rematlens map`, the
// file gzip-compressed as the atlas keeps it.

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <zlib.h>

// Maps the demo's DTR row (eager, overhead limit 2; `more` may name another --policy) over
// from..to into `out` (a `map --out` file); the command's error output when it fails, else an empty string.
inline QString mapDemo(const QString &from, const QString &to, const QString &out,
                       const QStringList &more = {})
{
    QProcess process;
    const QStringList policy = more.contains(QStringLiteral("--policy"))
                                   ? QStringList{}
                                   : QStringList{QStringLiteral("--policy"), QStringLiteral("DTR")};
    process.start(QStringLiteral(REMATLENS_BINARY),
                  QStringList{QStringLiteral("map"), QStringLiteral(":demo"), QStringLiteral("--from"), from,
                              QStringLiteral("--to"), to, QStringLiteral("--runtime"), QStringLiteral("eager"),
                              QStringLiteral("--overhead-limit"), QStringLiteral("2"), QStringLiteral("--out"), out}
                      + policy + more);
    process.waitForFinished(300000);
    return process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0
               ? QString()
               : QString::fromUtf8(process.readAllStandardError());
}

inline bool writeGzip(const QString &path, const QByteArray &content)
{
    gzFile out = gzopen(path.toLocal8Bit().constData(), "wb");
    if (!out)
        return false;
    const int written = gzwrite(out, content.constData(), static_cast<unsigned>(content.size()));
    return gzclose(out) == Z_OK && written == content.size();
}
