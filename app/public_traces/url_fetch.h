#pragma once

#include <QByteArray>
#include <QString>
#include <QUrl>

namespace rematlens {

struct FetchResult {
    QByteArray data;
    QString error; // empty when the whole content arrived
};

// Fetches URL (https://, http:// or file://) into memory with Qt Network, following redirects that
// stay as safe (https to https). Fails past maxBytes, and when no data arrives for stallSeconds,
// so a dead connection ends with an error instead of hanging. Needs a QCoreApplication.
FetchResult fetchUrl(const QUrl &url, qint64 maxBytes, int stallSeconds = 60);

// A URL from what a user typed: an address, or a local path (relative to the working directory).
QUrl urlFromUserInput(const QString &text);

} // namespace rematlens
