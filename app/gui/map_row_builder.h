#pragma once

#include "views/tables/map_provenance.h"

#include "core/map/byte_range.h"
#include "core/sim/run_result.h"

#include <QObject>
#include <QString>

#include <map>
#include <set>
#include <vector>

namespace rematlens {

class ExactMapModel;

// Merges intervals into the exact maps off the GUI thread. A map of 125,000 intervals takes
// most of a second to sort and summarise: that runs in a worker, and the GUI thread only swaps
// the finished map into the model. One merge per map runs at a time; intervals that arrive
// meanwhile wait and go into the next, so every map grows in the order its intervals came.
class MapRowBuilder : public QObject {
    Q_OBJECT

public:
    MapRowBuilder(ExactMapModel &maps, QObject *parent);

    // Intervals over `range` for the map `key` of the model's trace (none: the range alone).
    void add(const QString &key, ByteRange range, std::vector<RunResult> intervals, const MapProvenance &from);
    // Merges under way or waiting.
    bool busy() const { return !m_inFlight.empty(); }
    // Merges for another trace are dropped (their results never reach the model).
    void forget();

signals:
    // Every merge asked for is in the model.
    void settled();

private:
    struct Pending {
        ByteRange range;
        std::vector<RunResult> intervals;
        MapProvenance from;
        bool any = false;
    };
    void startNext(const QString &key);

    ExactMapModel &m_maps;
    std::map<QString, Pending> m_waiting; // per map, what arrived while its merge ran
    std::set<QString> m_inFlight;         // maps with a merge running
    int m_generation = 0;                 // forget() makes running merges stale
};

} // namespace rematlens
