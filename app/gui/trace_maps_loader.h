#pragma once

#include "map_cache.h"

#include "app/formats/bundled_map.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <map>
#include <memory>
#include <vector>

template <typename T>
class QFutureWatcher;

namespace rematlens {

// Reads the maps known for one trace off the GUI thread: those this computer made in earlier
// sessions (the user's map cache) and the bundled maps of the atlas (an InceptionV4 map is some
// 125,000 records): every file of the atlas directory whose provenance names the trace's
// SHA-256. Files of other traces are read no further than their first line.
class TraceMapsLoader : public QObject {
    Q_OBJECT

public:
    struct Scan {
        QString traceHash;
        std::map<QString, MapCache::Stored> cached; // by row key
        qint64 cacheBytes = 0;                      // of the cache file, read
        std::vector<BundledMap> atlas;
        QStringList problems; // one per atlas file that could not be read, naming it and the line
    };

    explicit TraceMapsLoader(QObject *parent = nullptr);

    // Starts reading the maps of the trace with this hash: its cache, the atlas's, or both; a
    // scan still running is dropped.
    void load(const QString &traceHash, bool withCache, bool withAtlas = true);
    // A scan is still running.
    bool loading() const { return m_pending != nullptr; }

    static Scan scan(const QString &atlasDirectory, const QString &traceHash, const QString &cachePath);

signals:
    // The scan is the receiver's to take from (a large one is moved, not copied, on the GUI thread).
    void loaded(std::shared_ptr<rematlens::TraceMapsLoader::Scan> scan);

private:
    void deliver(QFutureWatcher<Scan> *watcher);

    QFutureWatcher<Scan> *m_pending = nullptr; // the scan whose result counts
};

} // namespace rematlens
