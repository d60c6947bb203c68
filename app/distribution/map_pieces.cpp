#include "app/distribution/map_pieces.h"

#include <algorithm>

namespace rematlens {

MapPieces::MapPieces(ByteRange whole, std::size_t count) : m_whole(whole), m_pieces(splitRange(whole, count)) {}

std::size_t MapPieces::ownerOf(const BudgetInterval &interval) const
{
    const Bytes at = std::max(interval.lo, m_whole.from);
    const auto above = std::upper_bound(m_pieces.begin(), m_pieces.end(), at,
                                        [](Bytes b, const ByteRange &piece) { return b < piece.from; });
    return above == m_pieces.begin() ? 0 : static_cast<std::size_t>(above - m_pieces.begin()) - 1;
}

std::vector<std::vector<ByteRange>> MapPieces::todo(const std::vector<BudgetInterval> &known) const
{
    std::vector<std::vector<ByteRange>> perPiece(m_pieces.size());
    for (ByteRange gap : uncoveredRanges(m_whole, known))
        for (std::size_t k = ownerOf({gap.from, {}}); !gap.empty(); ++k) {
            const ByteRange part{gap.from, std::min(gap.end, m_pieces[k].end)};
            perPiece[k].push_back(part);
            gap.from = part.end;
        }
    return perPiece;
}

} // namespace rematlens
