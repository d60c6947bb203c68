#pragma once

#include "app/distribution/map_pieces.h"

#include "app/mpi/mpi_world.h"
#include "app/mpi/work_distributor.h"

#include "core/map/budget_walker.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <functional>
#include <vector>

namespace rematlens {

// One map's pieces walked over the ranks of an MPI job (or on this process's threads when the
// world is one process): rank 0 hands out pieces as ranks ask (WorkDistributor), each rank walks
// a piece sequentially on one of its threads, and the records of the intervals the piece
// reports come back to rank 0 as one message when the piece is done. Dense stretches make some
// pieces thousands of times dearer than others, so pieces are many and handed out late.
class MapAcrossRanks {
public:
    struct Item {
        std::size_t piece = 0;
        std::vector<ByteRange> todo; // of the piece, what the file does not hold
    };
    // What one rank did: its threads' busy time in walks, over the run's wall time.
    struct RankLoad {
        double busySeconds = 0;
        std::size_t pieces = 0;
        std::size_t replays = 0;
        std::size_t joins = 0;
    };
    // Rank 0 only: one piece's intervals (records, as map files hold them) and bytes mapped.
    using PieceHandler = std::function<void(const std::vector<nlohmann::ordered_json> &records, Bytes mapped)>;
    // A record of each interval the walker found in the piece (on the rank that walked it).
    using RecordMaker = std::function<nlohmann::ordered_json(const RunResult &result)>;

    MapAcrossRanks(const MpiWorld &world, const BudgetWalker &walker, const MapPieces &pieces, int threads);

    // Every rank calls this; items matter on rank 0 only (they are broadcast).
    WorkDistributor::Ending run(std::vector<Item> items, const RecordMaker &makeRecord, const PieceHandler &onPiece,
                                const std::atomic<bool> *cancel);

    // Rank 0, after run: per rank, and the run's wall time.
    const std::vector<RankLoad> &loads() const { return m_loads; }
    double wallSeconds() const { return m_wallSeconds; }
    int threads() const { return m_distributor.threads(); }

private:
    const MpiWorld &m_world;
    const BudgetWalker &m_walker;
    const MapPieces &m_pieces;
    WorkDistributor m_distributor;
    std::vector<RankLoad> m_loads;
    double m_wallSeconds = 0;
};

} // namespace rematlens
