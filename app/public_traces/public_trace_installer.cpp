#include "app/public_traces/public_trace_installer.h"

#include "app/public_traces/zip_archive.h"

#include <QDir>
#include <QSaveFile>

#include <algorithm>

namespace rematlens {

PublicTraceInstaller::PublicTraceInstaller(const PublicTraceSet &set)
    : m_set(set)
{
}

QString PublicTraceInstaller::install(const QByteArray &archive, const QString &directory) const
{
    const QString nothingInstalled = QStringLiteral("; nothing was installed");
    QString error;
    const std::unique_ptr<ZipArchive> zip = ZipArchive::open(archive, error);
    if (!zip)
        return QStringLiteral("the download is not a zip archive (%1)").arg(error) + nothingInstalled;
    const std::optional<std::vector<QByteArray>> contents = unpack(*zip, error);
    if (!contents)
        return error + nothingInstalled;
    if (error = verify(*contents); !error.isEmpty())
        return error + nothingInstalled;
    return write(*contents, directory);
}

std::optional<std::vector<QByteArray>> PublicTraceInstaller::unpack(const ZipArchive &zip, QString &error) const
{
    const std::vector<PublicTrace> &traces = m_set.traces();
    std::vector<std::optional<QByteArray>> found(traces.size());
    for (qint64 entry = 0; entry < zip.entryCount(); ++entry) {
        const QString path = zip.entryName(entry);
        const QString fileName = path.section(QLatin1Char('/'), -1); // other files, and macOS's "._NAME", are skipped
        const auto trace = std::find_if(traces.begin(), traces.end(),
                                        [&](const PublicTrace &t) { return t.fileName == fileName; });
        if (trace == traces.end())
            continue;
        std::optional<QByteArray> &slot = found[static_cast<std::size_t>(trace - traces.begin())];
        if (slot) {
            error = QStringLiteral("the archive holds %1 twice").arg(fileName);
            return std::nullopt;
        }
        QString readError;
        slot = zip.read(entry, kMaxTraceBytes, readError);
        if (!slot) {
            error = QStringLiteral("%1 in the archive cannot be unpacked: %2").arg(path, readError);
            return std::nullopt;
        }
    }
    std::vector<QByteArray> contents;
    for (std::size_t i = 0; i < traces.size(); ++i) {
        if (!found[i]) {
            error = QStringLiteral("the archive has no %1").arg(traces[i].fileName);
            return std::nullopt;
        }
        contents.push_back(*found[i]);
    }
    return contents;
}

QString PublicTraceInstaller::verify(const std::vector<QByteArray> &contents) const
{
    for (std::size_t i = 0; i < contents.size(); ++i) {
        const PublicTrace &trace = m_set.traces()[i];
        const QByteArray actual = PublicTraceSet::sha256Of(contents[i]);
        if (actual != trace.sha256)
            return QStringLiteral("%1 does not match its published SHA-256 (expected %2, got %3)")
                .arg(trace.fileName, QString::fromLatin1(trace.sha256), QString::fromLatin1(actual));
    }
    return {};
}

// Each file is written beside its final name and renamed over it, so a reader never sees half
// a trace and an earlier copy stays whole if writing fails.
QString PublicTraceInstaller::write(const std::vector<QByteArray> &contents, const QString &directory) const
{
    if (!QDir().mkpath(directory))
        return QStringLiteral("cannot create %1").arg(directory);
    for (std::size_t i = 0; i < contents.size(); ++i) {
        QSaveFile file(QDir(directory).filePath(m_set.traces()[i].fileName));
        if (!file.open(QIODevice::WriteOnly) || file.write(contents[i]) != contents[i].size() || !file.commit())
            return QStringLiteral("cannot write %1: %2").arg(file.fileName(), file.errorString());
    }
    return {};
}

} // namespace rematlens
