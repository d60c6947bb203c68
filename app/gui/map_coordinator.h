#pragma once

#include "map_cache.h"
#include "map_controller.h"
#include "map_row_builder.h"
#include "trace_maps_loader.h"

#include "core/sim/baseline.h"
#include "core/sim/run_request.h"

#include <QLockFile>
#include <QObject>
#include <QStringList>

#include <map>
#include <memory>
#include <optional>

namespace rematlens {

class ExactMapModel;
class JobStatusBar;
class SweepResultModel;

// Map Exactly: every budget byte of a range for each strip row that can be mapped, off the
// GUI thread, into the row's own map (keyed by its row identity, so a map belongs to exactly
// one row). Maps are kept per trace on disk as intervals arrive; a cancelled map keeps what it
// found and leaves the rest unmapped. When a trace opens, the maps of earlier sessions and the
// complete maps of the public traces that come with the program (the atlas) are read and built
// off the GUI thread and shown as if the window had made them: mapping then walks only the
// budgets they leave out. Each map remembers where its intervals came from (MapProvenance).
class MapCoordinator : public QObject {
    Q_OBJECT

public:
    MapCoordinator(const SweepResultModel &sweep, ExactMapModel &maps, JobStatusBar &status, QObject *parent);

    // A new trace: the maps made for it in earlier sessions, and the atlas's.
    void setTrace(std::shared_ptr<const Program> program, const Baseline &baseline, const QString &traceHash);
    // Maps the grid columns first..last (all of them when none) of every row that can be
    // mapped; the reason when nothing can, and in `skipped` the rows left out and why.
    // While the trace's known maps are still being read or built, a map waits for them (the
    // window stays responsive) and starts once they are shown, walking only what they leave out.
    QString start(std::optional<std::pair<std::size_t, std::size_t>> columns, int threads, QStringList &skipped);
    void cancel();
    bool running() const { return m_controller.running() || m_deferred.has_value() || m_finishing.has_value(); }
    // The trace's known maps are being read or built.
    bool settling() const { return m_loader.loading() || m_builder.busy(); }
    // Replays the last finished map made (none when the atlas and earlier maps knew every budget).
    std::size_t lastReplays() const { return m_lastReplays; }

signals:
    void intervalsChanged();
    void finished(bool cancelled);
    void runningChanged();
    // The known maps of a newly set trace are being read (settled() follows).
    void readingKnownMaps();
    // The known maps of the trace are shown (read and built).
    void settled();
    // A line for the status bar: an atlas file that could not be read.
    void message(const QString &text, int timeout = 0);

private:
    struct DeferredStart {
        std::optional<std::pair<std::size_t, std::size_t>> columns;
        int threads = 0;
    };
    struct Finishing {
        bool cancelled = false;
        double seconds = 0;
        std::size_t replays = 0;
    };

    void showIntervals(int job, const QString &key, ByteRange range, const std::vector<RunResult> &intervals);
    void showFinished(int job, bool cancelled, double seconds, std::size_t replays);
    void reportFinished();
    void showLoaded(std::shared_ptr<TraceMapsLoader::Scan> scan);
    void whenSettled();
    void startDeferred();

    const SweepResultModel &m_sweep;
    ExactMapModel &m_maps;
    JobStatusBar &m_status;
    MapController m_controller;
    MapRowBuilder m_builder;
    MapCache m_cache;
    TraceMapsLoader m_loader{this}; // a child, so tests can find it
    QString m_traceHash;
    std::shared_ptr<const Program> m_program;
    Baseline m_baseline;
    std::map<QString, RunRequest> m_rows; // the running map's rows, by key
    ByteRange m_range;
    std::size_t m_lastReplays = 0;
    std::optional<DeferredStart> m_deferred; // a map asked for while the known maps were read
    std::optional<Finishing> m_finishing;    // a walk done, its last intervals still being built
    std::map<QString, std::unique_ptr<QLockFile>> m_locks; // the rows this window maps now
};

} // namespace rematlens
