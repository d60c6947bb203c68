#pragma once

#include "app/public_traces/public_trace_set.h"

#include <QByteArray>
#include <QString>

#include <optional>
#include <vector>

namespace rematlens {

class ZipArchive;

// Installs a set of public traces from their archive all or nothing: every trace is unpacked and
// checked against its published SHA-256 first, and the files are written only when all match.
class PublicTraceInstaller {
public:
    explicit PublicTraceInstaller(const PublicTraceSet &set);

    // Installs into DIRECTORY (created if needed); or an error message naming the file at fault
    // (and saying when nothing was written, as for any damaged, missing or altered trace).
    QString install(const QByteArray &archive, const QString &directory) const;

    // No published trace comes near this; a larger entry is not one of them.
    static constexpr qint64 kMaxTraceBytes = qint64{256} << 20;

private:
    // Each trace's content, in the set's order: found anywhere in the archive by file name.
    std::optional<std::vector<QByteArray>> unpack(const ZipArchive &zip, QString &error) const;
    QString verify(const std::vector<QByteArray> &contents) const;
    QString write(const std::vector<QByteArray> &contents, const QString &directory) const;

    const PublicTraceSet &m_set;
};

} // namespace rematlens
