#include "app/formats/bundled_map_reader.h"

#include "app/formats/gzip_line_reader.h"
#include "app/formats/map_record.h"
#include "app/formats/provenance.h"

#include <tbb/parallel_for.h>

#include <map>
#include <tuple>

namespace rematlens {

namespace {

using Json = nlohmann::ordered_json;

// What the provenance line says about the maps below it.
struct Header {
    std::string traceSha256;
    ByteRange range;
    std::string allocator; // allocatorKey(); `map` names only a model other than the byte sum
    std::uint64_t seed = 0;
};

std::optional<Header> headerOf(const std::string &path, const std::string &line, std::string &error)
{
    const std::optional<Provenance> provenance = Provenance::parse(line);
    const Json fields = provenance ? provenance->fields() : Json();
    const Json range = fields.value("range", Json());
    if (!provenance || provenance->traceSha256().empty() || !range.is_object()
        || !range.value("from_bytes", Json()).is_number_integer() || !range.value("to_bytes", Json()).is_number_integer()) {
        error = path + ":1: expected the provenance line of a map written by rematlens map --out (with "
                       "\"trace_sha256\" and \"range\": {\"from_bytes\", \"to_bytes\"})";
        return std::nullopt;
    }
    Header header;
    header.traceSha256 = provenance->traceSha256();
    header.range = ByteRange{range["from_bytes"].get<Bytes>(), range["to_bytes"].get<Bytes>()};
    header.allocator = fields.value("allocator", allocatorKey(AllocatorConfig{}));
    header.seed = provenance->seed();
    return header;
}

std::optional<Header> readHeader(GzipLineReader &in, const std::string &path, std::string &error)
{
    std::string line;
    if (!in.next(line, error)) {
        if (error.empty())
            error = path + ":1: empty: expected the provenance line of a map written by rematlens map --out";
        return std::nullopt;
    }
    return headerOf(path, line, error);
}

// The strip row a record's map is drawn on: its policy, runtime, limit, kept tensors and allocator
// model (the header's when the record names none, as records of the byte sum do), with the
// header's seed.
std::optional<RowIdentity> rowOf(const Json &record, const Header &header)
{
    const std::optional<RuntimeKind> runtime = findRuntime(record.value("runtime", std::string()));
    const Json limit = record.value("overhead_limit", Json(2.0));
    if (!runtime || !limit.is_number())
        return std::nullopt;
    RowIdentity row;
    row.policy = record.value("heuristic", std::string());
    row.runtime = *runtime;
    row.allocator = record.value("allocator", header.allocator);
    row.overheadLimit = limit.get<double>();
    const Json keep = record.value("keep", Json::array());
    if (!keep.is_array())
        return std::nullopt;
    for (const Json &name : keep) {
        if (!name.is_string())
            return std::nullopt;
        row.keep.push_back(name.get<std::string>());
    }
    row.seed = header.seed;
    return row;
}

} // namespace

std::optional<std::string> BundledMapReader::traceSha256Of(const std::string &path, std::string &error)
{
    GzipLineReader in;
    if (!in.open(path, error))
        return std::nullopt;
    const std::optional<Header> header = readHeader(in, path, error);
    if (!header)
        return std::nullopt;
    return header->traceSha256;
}

std::optional<BundledMap> BundledMapReader::read(const std::string &path, std::string &error)
{
    GzipLineReader in;
    if (!in.open(path, error))
        return std::nullopt;
    const std::optional<Header> header = readHeader(in, path, error);
    if (!header)
        return std::nullopt;
    BundledMap map{path, header->traceSha256, header->range, {}};
    std::map<std::string, std::size_t> rowByKey; // rows in the order the file first names them
    std::string line;
    while (in.next(line, error)) {
        if (line.empty())
            continue;
        const Json record = Json::parse(line, nullptr, false);
        std::optional<RunResult> interval = record.is_object() && record.contains("heuristic")
                                                ? mapRecordFromJson(record)
                                                : std::nullopt;
        const std::optional<RowIdentity> row = interval ? rowOf(record, *header) : std::nullopt;
        if (!row) {
            error = path + ":" + std::to_string(in.lineNumber())
                    + ": expected a map record (a JSON object with \"heuristic\", \"runtime\", \"lo\", \"hi\" and a "
                      "resolved \"result\")";
            return std::nullopt;
        }
        const auto [at, added] = rowByKey.try_emplace(row->key(), map.rows.size());
        if (added)
            map.rows.push_back({*row, {}});
        map.rows[at->second].intervals.push_back(std::move(*interval));
    }
    if (!error.empty())
        return std::nullopt;
    return map;
}

std::vector<BundledMapReader::Read> BundledMapReader::readAll(const std::vector<std::string> &paths)
{
    std::vector<Read> reads(paths.size());
    tbb::parallel_for(std::size_t{0}, paths.size(),
                      [&](std::size_t i) { reads[i].map = read(paths[i], reads[i].error); });
    return reads;
}

} // namespace rematlens
