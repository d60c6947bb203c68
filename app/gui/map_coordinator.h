#pragma once

#include "atlas_loader.h"
#include "map_cache.h"
#include "map_controller.h"

#include "core/sim/baseline.h"

#include <QObject>
#include <QStringList>

#include <optional>

namespace rematlens {

class ExactMapModel;
class JobStatusBar;
class SweepResultModel;

// Map Exactly: every budget byte of a range for each strip row that can be mapped, off the
// GUI thread, into the row's own map (keyed by its row identity, so a map belongs to exactly
// one row). Maps are kept per trace on disk as intervals arrive; a cancelled map keeps what it
// found and leaves the rest unmapped. The complete maps of the public traces that come with the
// program (the atlas) are shown as soon as their trace opens, as if the window had made them:
// mapping then walks only the budgets they leave out.
class MapCoordinator : public QObject {
    Q_OBJECT

public:
    MapCoordinator(const SweepResultModel &sweep, ExactMapModel &maps, JobStatusBar &status, QObject *parent);

    // A new trace: the maps made for it in earlier sessions, and the atlas's (read off the GUI thread).
    void setTrace(std::shared_ptr<const Program> program, const Baseline &baseline, const QString &traceHash);
    // Maps the grid columns first..last (all of them when none) of every row that can be
    // mapped; the reason when nothing can, and in `skipped` the rows left out and why.
    QString start(std::optional<std::pair<std::size_t, std::size_t>> columns, int threads, QStringList &skipped);
    // While the atlas's maps of the trace are still being read, a map waits for them (the
    // window stays responsive) and starts once they are shown, walking only what they leave out.
    void cancel();
    bool running() const { return m_controller.running() || m_deferred.has_value(); }
    // Replays the last finished map made (none when the atlas and earlier maps knew every budget).
    std::size_t lastReplays() const { return m_lastReplays; }

signals:
    void intervalsChanged();
    void finished(bool cancelled);
    void runningChanged();
    // A line for the status bar: where the maps shown came from, or which atlas file was unreadable.
    void message(const QString &text, int timeout = 0);

private:
    void showIntervals(int job, const QString &key, ByteRange range, const std::vector<RunResult> &intervals);
    void showFinished(int job, bool cancelled, double seconds, std::size_t replays);
    void showAtlas(const AtlasLoader::Scan &scan);
    QString describeAtlasRow(const BundledMap &map, const BundledMap::Row &row) const;
    void startDeferred();

    struct DeferredStart {
        std::optional<std::pair<std::size_t, std::size_t>> columns;
        int threads = 0;
    };

    const SweepResultModel &m_sweep;
    ExactMapModel &m_maps;
    JobStatusBar &m_status;
    MapController m_controller;
    MapCache m_cache;
    AtlasLoader m_atlas{this}; // a child, so tests can find it
    QString m_traceHash;
    std::shared_ptr<const Program> m_program;
    Baseline m_baseline;
    std::vector<QString> m_keys; // the running map's rows
    ByteRange m_range;
    std::size_t m_lastReplays = 0;
    std::optional<DeferredStart> m_deferred; // a map asked for while the atlas was being read
};

} // namespace rematlens
