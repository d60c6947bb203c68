#pragma once

#include <QByteArray>
#include <QString>

#include <memory>
#include <optional>

struct zip;

namespace rematlens {

// A zip archive held in memory, read with libzip (which checks each entry's CRC as it reads).
class ZipArchive {
public:
    // The archive in DATA, or nothing and an error when DATA is not a readable zip.
    static std::unique_ptr<ZipArchive> open(const QByteArray &data, QString &error);
    ~ZipArchive();
    ZipArchive(const ZipArchive &) = delete;
    ZipArchive &operator=(const ZipArchive &) = delete;

    qint64 entryCount() const;
    QString entryName(qint64 index) const; // the path inside the archive, "logs/unet-....log"

    // The entry's content, or nothing and an error when it is damaged or larger than maxBytes.
    std::optional<QByteArray> read(qint64 index, qint64 maxBytes, QString &error) const;

private:
    ZipArchive(QByteArray data, struct zip *archive);

    QByteArray m_data; // libzip reads from this buffer, so it lives as long as the archive
    struct zip *m_archive;
};

} // namespace rematlens
