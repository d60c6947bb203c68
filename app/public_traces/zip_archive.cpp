#include "app/public_traces/zip_archive.h"

#include <zip.h>

namespace rematlens {

namespace {

QString libzipMessage(zip_error_t *error)
{
    return QString::fromUtf8(zip_error_strerror(error));
}

// Closes an entry on every path out of read().
struct EntryCloser {
    void operator()(zip_file_t *file) const { zip_fclose(file); }
};

} // namespace

std::unique_ptr<ZipArchive> ZipArchive::open(const QByteArray &data, QString &error)
{
    zip_error_t zipError;
    zip_error_init(&zipError);
    // The QByteArray is shared, not copied: the archive's own copy keeps the bytes alive.
    QByteArray kept = data;
    zip_source_t *source = zip_source_buffer_create(kept.constData(), static_cast<zip_uint64_t>(kept.size()), 0, &zipError);
    zip_t *archive = source ? zip_open_from_source(source, ZIP_RDONLY | ZIP_CHECKCONS, &zipError) : nullptr;
    if (!archive) {
        error = libzipMessage(&zipError);
        if (source)
            zip_source_free(source);
        zip_error_fini(&zipError);
        return nullptr;
    }
    zip_error_fini(&zipError);
    return std::unique_ptr<ZipArchive>(new ZipArchive(std::move(kept), archive));
}

ZipArchive::ZipArchive(QByteArray data, zip_t *archive)
    : m_data(std::move(data))
    , m_archive(archive)
{
}

ZipArchive::~ZipArchive()
{
    zip_discard(m_archive); // read only: nothing to write back
}

qint64 ZipArchive::entryCount() const
{
    return zip_get_num_entries(m_archive, 0);
}

QString ZipArchive::entryName(qint64 index) const
{
    const char *name = zip_get_name(m_archive, static_cast<zip_uint64_t>(index), ZIP_FL_ENC_GUESS);
    return name ? QString::fromUtf8(name) : QString();
}

std::optional<QByteArray> ZipArchive::read(qint64 index, qint64 maxBytes, QString &error) const
{
    const auto zipIndex = static_cast<zip_uint64_t>(index);
    zip_stat_t stat;
    if (zip_stat_index(m_archive, zipIndex, 0, &stat) != 0 || !(stat.valid & ZIP_STAT_SIZE)) {
        error = libzipMessage(zip_get_error(m_archive));
        return std::nullopt;
    }
    if (stat.size > static_cast<zip_uint64_t>(maxBytes)) {
        error = QStringLiteral("%1 bytes unpacked, more than the %2 expected at most").arg(stat.size).arg(maxBytes);
        return std::nullopt;
    }
    const std::unique_ptr<zip_file_t, EntryCloser> file(zip_fopen_index(m_archive, zipIndex, 0));
    if (!file) {
        error = libzipMessage(zip_get_error(m_archive));
        return std::nullopt;
    }
    QByteArray content(static_cast<qsizetype>(stat.size), Qt::Uninitialized);
    qint64 filled = 0;
    // Reads until the end of the entry: libzip checks the CRC there, and an entry that says it is
    // shorter than it is fails here instead of being cut silently.
    while (true) {
        char probe;
        const bool full = filled == content.size();
        const zip_int64_t got = full ? zip_fread(file.get(), &probe, 1)
                                     : zip_fread(file.get(), content.data() + filled,
                                                 static_cast<zip_uint64_t>(content.size() - filled));
        if (got < 0) {
            error = libzipMessage(zip_file_get_error(file.get()));
            return std::nullopt;
        }
        if (got == 0)
            break;
        if (full) {
            error = QStringLiteral("damaged: it unpacks to more bytes than its header says");
            return std::nullopt;
        }
        filled += got;
    }
    if (filled != content.size()) {
        error = QStringLiteral("damaged: it unpacks to fewer bytes than its header says");
        return std::nullopt;
    }
    return content;
}

} // namespace rematlens
