#include "app/formats/saved_map.h"

#include "app/formats/sweep_file.h"
#include "app/formats/trace_source.h"

#include "core/map/map_summary.h"

#include <filesystem>
#include <map>
#include <sstream>

namespace rematlens {

namespace {

using Json = nlohmann::ordered_json;

std::string locateTrace(const std::string &path, const Provenance &provenance, const std::string &given,
                        std::string &error)
{
    if (!given.empty()) {
        if (given == kDemoTraceName || std::filesystem::is_regular_file(given))
            return given;
        error = given + ": no such trace";
        return {};
    }
    const Json name = provenance.fields().value("trace", Json());
    if (!name.is_string()) {
        error = path + ":1: the provenance names no single trace; say which with --trace";
        return {};
    }
    const std::string traceName = name.get<std::string>();
    if (traceName == kDemoTraceName)
        return traceName;
    for (const std::filesystem::path &candidate :
         {std::filesystem::path(path).parent_path() / traceName, std::filesystem::path(traceName)})
        if (std::filesystem::is_regular_file(candidate))
            return candidate.string();
    error = traceName + ": the trace of " + path + " is neither beside it nor in the working directory; say where it "
                        "is with --trace";
    return {};
}

std::optional<ByteRange> rangeOf(const std::string &path, const Provenance &provenance, std::string &error)
{
    const Json range = provenance.fields().value("range", Json());
    if (!range.is_object() || !range.value("from_bytes", Json()).is_number_integer()
        || !range.value("to_bytes", Json()).is_number_integer()) {
        error = path + ":1: expected a map's provenance, with \"range\": {\"from_bytes\", \"to_bytes\"}";
        return std::nullopt;
    }
    return ByteRange{range["from_bytes"].get<Bytes>(), range["to_bytes"].get<Bytes>()};
}

MapIdentity identityOf(const Json &record)
{
    MapIdentity identity;
    identity.trace = record.value("trace", std::string());
    identity.heuristic = record.value("heuristic", std::string());
    identity.runtime = record.value("runtime", std::string());
    identity.overheadLimit = record.value("overhead_limit", 2.0);
    identity.keep = record.value("keep", std::vector<std::string>{});
    identity.allocator = record.value("allocator", std::string("sum"));
    return identity;
}

} // namespace

std::optional<SavedMap> SavedMap::read(const std::string &path, const std::string &givenTrace, std::string &error)
{
    SavedMap map;
    map.path = path;
    const std::optional<Provenance> provenance = Provenance::readFrom(path);
    if (!std::filesystem::is_regular_file(path)) {
        error = path + ": no such file";
        return std::nullopt;
    }
    if (!provenance) {
        error = path + ":1: expected the provenance line of a map written by rematlens map --out";
        return std::nullopt;
    }
    map.provenance = *provenance;
    const std::optional<ByteRange> range = rangeOf(path, map.provenance, error);
    if (!range)
        return std::nullopt;
    map.range = *range;
    map.tracePath = locateTrace(path, map.provenance, givenTrace, error);
    if (map.tracePath.empty())
        return std::nullopt;
    const std::optional<std::string> sha = Provenance::sha256OfTrace(map.tracePath, error);
    if (!sha)
        return std::nullopt;
    if (*sha != map.provenance.traceSha256()) {
        error = map.tracePath + ": its SHA-256 is " + *sha + ", but " + path + " was made from a trace whose SHA-256 is "
                + map.provenance.traceSha256();
        return std::nullopt;
    }
    std::istringstream in(readCompleteLines(path));
    std::map<MapIdentity::Key, std::size_t> partOf;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        if (line.empty() || (number == 1 && Provenance::isHeaderLine(line)))
            continue;
        const Json record = Json::parse(line, nullptr, false);
        const std::optional<RunResult> interval =
            record.is_object() && record.contains("heuristic") ? mapRecordFromJson(record) : std::nullopt;
        if (!interval) {
            error = path + ":" + std::to_string(number)
                    + ": expected a map record (a JSON object with \"heuristic\", \"lo\", \"hi\" and a resolved "
                      "\"result\")";
            return std::nullopt;
        }
        const auto [it, added] = partOf.emplace(MapIdentity::keyOf(record), map.parts.size());
        if (added)
            map.parts.push_back(Part{identityOf(record), {}});
        map.parts[it->second].intervals.push_back(*interval);
    }
    if (map.parts.empty()) {
        error = path + ": the map holds no interval";
        return std::nullopt;
    }
    for (Part &part : map.parts)
        part.intervals = sortedIntervals(std::move(part.intervals));
    return map;
}

} // namespace rematlens
