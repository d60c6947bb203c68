#pragma once

#include "app/cli/bundled_map.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <vector>

template <typename T>
class QFutureWatcher;

namespace rematlens {

// Reads the bundled maps of one trace off the GUI thread (an LSTM map is some 12,000 records):
// every file of the atlas directory whose provenance names the trace's SHA-256. Files of other
// traces are read no further than their first line.
class AtlasLoader : public QObject {
    Q_OBJECT

public:
    struct Scan {
        QString traceHash;
        std::vector<BundledMap> maps;
        QStringList problems; // one per file that could not be read, naming it and the line
    };

    explicit AtlasLoader(QObject *parent = nullptr);

    // Starts reading the maps of the trace with this hash; a scan still running is dropped.
    void load(const QString &traceHash);
    // A scan is still running.
    bool loading() const { return m_pending != nullptr; }

    static Scan scan(const QString &directory, const QString &traceHash);

signals:
    void loaded(const rematlens::AtlasLoader::Scan &scan);

private:
    void deliver(QFutureWatcher<Scan> *watcher);

    QFutureWatcher<Scan> *m_pending = nullptr; // the scan whose result counts
};

} // namespace rematlens
