#include "atlas_loader.h"

#include "atlas_directory.h"

#include "app/cli/bundled_map_reader.h"

#include <QDir>
#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace rematlens {

AtlasLoader::AtlasLoader(QObject *parent) : QObject(parent) {}

AtlasLoader::Scan AtlasLoader::scan(const QString &directory, const QString &traceHash)
{
    Scan found{traceHash, {}, {}};
    if (directory.isEmpty() || traceHash.isEmpty())
        return found;
    const QDir atlas(directory);
    for (const QString &name : atlas.entryList({QStringLiteral("*.jsonl.gz")}, QDir::Files, QDir::Name)) {
        const std::string path = atlas.filePath(name).toStdString();
        std::string error;
        const std::optional<std::string> trace = BundledMapReader::traceSha256Of(path, error);
        if (trace && QString::fromStdString(*trace) != traceHash)
            continue; // another trace's map
        std::optional<BundledMap> map = trace ? BundledMapReader::read(path, error) : std::nullopt;
        if (map)
            found.maps.push_back(std::move(*map));
        else
            found.problems << QString::fromStdString(error);
    }
    return found;
}

void AtlasLoader::load(const QString &traceHash)
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
    // The directory is chosen here, on the GUI thread, where the environment is read.
    watcher->setFuture(QtConcurrent::run(&AtlasLoader::scan, atlasDirectory(), traceHash));
}

void AtlasLoader::deliver(QFutureWatcher<Scan> *watcher)
{
    m_pending = nullptr;
    const Scan result = watcher->result();
    emit loaded(result);
}

} // namespace rematlens
