#include "trace_maps_loader.h"

#include "background_jobs.h"

#include "atlas_directory.h"

#include "app/formats/bundled_map_reader.h"

#include <QDir>
#include <QFutureWatcher>

namespace rematlens {

TraceMapsLoader::TraceMapsLoader(QObject *parent) : QObject(parent) {}

TraceMapsLoader::Scan TraceMapsLoader::scan(const QString &atlasDirectory, const QString &traceHash,
                                            const QString &cachePath)
{
    Scan found{traceHash, {}, 0, {}, {}};
    if (traceHash.isEmpty())
        return found;
    if (!cachePath.isEmpty())
        found.cached = MapCache::read(cachePath, &found.cacheBytes);
    if (atlasDirectory.isEmpty())
        return found;
    const QDir atlas(atlasDirectory);
    std::vector<std::string> ofTrace; // read side by side once every file's first line is known
    for (const QString &name : atlas.entryList({QStringLiteral("*.jsonl.gz")}, QDir::Files, QDir::Name)) {
        const std::string path = atlas.filePath(name).toStdString();
        std::string error;
        const std::optional<std::string> trace = BundledMapReader::traceSha256Of(path, error);
        if (!trace)
            found.problems << QString::fromStdString(error);
        else if (QString::fromStdString(*trace) == traceHash)
            ofTrace.push_back(path);
    }
    for (BundledMapReader::Read &read : BundledMapReader::readAll(ofTrace)) {
        if (read.map)
            found.atlas.push_back(std::move(*read.map));
        else
            found.problems << QString::fromStdString(read.error);
    }
    return found;
}

void TraceMapsLoader::load(const QString &traceHash, bool withCache, bool withAtlas)
{
    m_pending = nullptr; // an earlier scan's result no longer counts
    if (traceHash.isEmpty())
        return;
    auto *watcher = new QFutureWatcher<Scan>(this);
    connect(watcher, &QFutureWatcher<Scan>::finished, this, [this, watcher] {
        if (watcher == m_pending)
            deliver(watcher);
        watcher->deleteLater();
    });
    m_pending = watcher;
    // The folders are chosen here, on the GUI thread, where the environment is read.
    const QString cachePath = withCache ? MapCache::pathOf(traceHash) : QString();
    watcher->setFuture(
        runInBackground(&TraceMapsLoader::scan, withAtlas ? atlasDirectory() : QString(), traceHash, cachePath));
}

void TraceMapsLoader::deliver(QFutureWatcher<Scan> *watcher)
{
    m_pending = nullptr;
    emit loaded(std::make_shared<Scan>(watcher->future().takeResult()));
}

} // namespace rematlens
