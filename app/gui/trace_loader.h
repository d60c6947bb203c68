#pragma once

#include "core/trace/program.h"
#include "views/tables/trace_summary.h"

#include <QFutureWatcher>
#include <QObject>

#include <memory>

namespace rematlens {

// A loaded trace, or why it could not be loaded.
struct LoadedTraceResult {
    std::shared_ptr<const Program> program;
    TraceSummary summary;
    QString error;
    QString contentHash; // SHA-256 of the trace's bytes, hex
    double milliseconds = 0;
};

// Reads and summarizes traces off the GUI thread; only the newest request's result is delivered.
class TraceLoader : public QObject {
    Q_OBJECT

public:
    explicit TraceLoader(QObject *parent = nullptr);
    ~TraceLoader() override;

    void load(const QString &pathOrDemo);
    bool busy() const;

signals:
    void loaded(const rematlens::LoadedTraceResult &result);
    void failed(const QString &message);

private:
    void deliver();

    QFutureWatcher<LoadedTraceResult> m_watcher;
    int m_request = 0;
};

} // namespace rematlens
