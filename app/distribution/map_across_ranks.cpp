#include "app/distribution/map_across_ranks.h"

#include "app/mpi/byte_pack.h"

#include <chrono>

namespace rematlens {

namespace {

std::string packItems(const std::vector<MapAcrossRanks::Item> &items)
{
    std::string bytes;
    for (const MapAcrossRanks::Item &item : items) {
        putNumber(bytes, item.piece);
        putNumber(bytes, item.todo.size());
        for (const ByteRange &r : item.todo) {
            putNumber(bytes, static_cast<std::uint64_t>(r.from));
            putNumber(bytes, static_cast<std::uint64_t>(r.end));
        }
    }
    return bytes;
}

std::vector<MapAcrossRanks::Item> unpackItems(const std::string &bytes)
{
    std::vector<MapAcrossRanks::Item> items;
    for (std::size_t offset = 0; offset < bytes.size();) {
        MapAcrossRanks::Item item;
        item.piece = getNumber(bytes, offset);
        const std::size_t ranges = getNumber(bytes, offset);
        for (std::size_t i = 0; i < ranges; ++i) {
            const auto from = static_cast<Bytes>(getNumber(bytes, offset));
            const auto end = static_cast<Bytes>(getNumber(bytes, offset));
            item.todo.push_back({from, end});
        }
        items.push_back(std::move(item));
    }
    return items;
}

} // namespace

MapAcrossRanks::MapAcrossRanks(const MpiWorld &world, const BudgetWalker &walker, const MapPieces &pieces, int threads)
    : m_world(world), m_walker(walker), m_pieces(pieces), m_distributor(world, threads)
{
}

WorkDistributor::Ending MapAcrossRanks::run(std::vector<Item> items, const RecordMaker &makeRecord,
                                            const PieceHandler &onPiece, const std::atomic<bool> *cancel)
{
    std::string packed = packItems(items);
    m_world.broadcast(packed);
    items = unpackItems(packed);
    m_loads.assign(static_cast<std::size_t>(m_world.size()), RankLoad{});
    const auto started = std::chrono::steady_clock::now();
    const WorkDistributor::Ending ending = m_distributor.run(
        items.size(),
        [&](std::size_t i, const std::atomic<bool> *stop) {
            const auto begun = std::chrono::steady_clock::now();
            nlohmann::ordered_json records = nlohmann::ordered_json::array();
            const MapWalkEnd end = m_walker.walk(items[i].todo, stop, [&](const RunResult &result) {
                // The first interval of a piece may begin in the piece below, which reports it.
                if (m_pieces.ownerOf(result.interval) == items[i].piece)
                    records.push_back(makeRecord(result));
            });
            Bytes mapped = 0;
            for (const ByteRange &r : items[i].todo)
                mapped += r.size();
            for (const ByteRange &r : end.unmapped)
                mapped -= r.size();
            const nlohmann::ordered_json message{
                {"rank", m_world.rank()},
                {"seconds", std::chrono::duration<double>(std::chrono::steady_clock::now() - begun).count()},
                {"replays", end.replays},
                {"joins", end.joins},
                {"mapped", mapped},
                {"records", std::move(records)}};
            return message.dump();
        },
        [&](std::size_t, std::string &&bytes) {
            const nlohmann::ordered_json message = nlohmann::ordered_json::parse(bytes);
            RankLoad &load = m_loads.at(message.at("rank").get<std::size_t>());
            load.busySeconds += message.at("seconds").get<double>();
            load.replays += message.at("replays").get<std::size_t>();
            load.joins += message.at("joins").get<std::size_t>();
            ++load.pieces;
            onPiece(message.at("records").get<std::vector<nlohmann::ordered_json>>(), message.at("mapped").get<Bytes>());
        },
        cancel);
    m_wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return ending;
}

} // namespace rematlens
