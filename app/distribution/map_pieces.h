#pragma once

#include "core/map/byte_range.h"
#include "core/sim/budget_interval.h"

#include <cstddef>
#include <vector>

namespace rematlens {

// A map's range cut into pieces for shards and MPI ranks, each walked on its own. Every
// interval is reported by exactly one piece, the one holding max(lo, range start), so the
// pieces' intervals tile the range with no repeat however the pieces are spread. A piece's walk
// begins with a replay inside the interval that straddles its start (reported by the piece
// below), so pieces cost one replay each beyond the intervals.
class MapPieces {
public:
    // Pieces each shard of `map --shard I/N` owns (interleaved: piece k is shard k mod N's),
    // enough that the dense stretches spread over every shard; merge cuts the range the same way.
    static constexpr std::size_t kPerShard = 64;

    MapPieces(ByteRange whole, std::size_t count);

    std::size_t count() const { return m_pieces.size(); }
    ByteRange piece(std::size_t k) const { return m_pieces[k]; }
    // The piece that reports the interval.
    std::size_t ownerOf(const BudgetInterval &interval) const;
    // Per piece, its budgets that no known interval covers (what a resumed walk still replays).
    std::vector<std::vector<ByteRange>> todo(const std::vector<BudgetInterval> &known) const;

private:
    ByteRange m_whole;
    std::vector<ByteRange> m_pieces;
};

} // namespace rematlens
