#include "app/distribution/map_merge.h"

#include "app/requests/request_reporter.h"

#include "app/formats/map_file.h"
#include "app/distribution/map_pieces.h"
#include "app/distribution/shard.h"

#include <algorithm>
#include <iostream>
#include <map>

namespace rematlens {

namespace {

constexpr std::size_t kProblemsShown = 20;

struct Found {
    Bytes lo = 0;
    std::optional<Bytes> hi;
    std::size_t file = 0;
};

std::string bytesText(Bytes b) { return std::to_string(b) + " B"; }

// The intervals of one policy, from every shard, against the range they must tile.
class Tiling {
public:
    Tiling(ByteRange range, std::size_t shards, const std::vector<std::string> &paths)
        // Cut as map --shard cuts the range, so a gap's owner names the shard to rerun.
        : m_range(range), m_pieces(range, MapPieces::kPerShard * shards), m_shards(shards), m_paths(paths)
    {
    }

    void check(const std::string &heuristic, std::vector<Found> found, std::vector<std::string> &problems) const
    {
        std::sort(found.begin(), found.end(), [](const Found &a, const Found &b) { return a.lo < b.lo; });
        Bytes next = m_range.from; // the lowest budget not covered yet
        const Found *previous = nullptr;
        for (const Found &f : found) {
            if (f.lo >= m_range.end) {
                problems.push_back(heuristic + ": " + m_paths[f.file] + " has an interval from " + bytesText(f.lo)
                                   + ", past the map's range (to " + bytesText(m_range.end - 1) + ")");
                continue;
            }
            if (previous && f.lo < next)
                problems.push_back(heuristic + ": the intervals from " + bytesText(previous->lo) + " (" + m_paths[previous->file]
                                   + ") and from " + bytesText(f.lo) + " (" + m_paths[f.file] + ") overlap"
                                   + (f.lo == previous->lo ? ": the same interval is there twice" : ""));
            else if (f.lo > next)
                gap(heuristic, next, f.lo, problems);
            else if (!previous && f.lo > m_range.from)
                gap(heuristic, m_range.from, f.lo, problems);
            if (!f.hi) {
                next = m_range.end;
            } else {
                next = std::max(next, *f.hi);
            }
            previous = &f;
        }
        if (next < m_range.end)
            gap(heuristic, next, m_range.end, problems);
    }

private:
    void gap(const std::string &heuristic, Bytes from, Bytes end, std::vector<std::string> &problems) const
    {
        const std::size_t shard = m_pieces.ownerOf({from, {}}) % m_shards;
        problems.push_back(heuristic + ": budgets " + bytesText(from) + " .. " + bytesText(end - 1)
                           + " are in no shard's file (shard " + std::to_string(shard) + "/" + std::to_string(m_shards)
                           + " maps them; rerun it to complete its file)");
    }

    ByteRange m_range;
    MapPieces m_pieces;
    std::size_t m_shards;
    const std::vector<std::string> &m_paths;
};

std::string report(const std::vector<std::string> &problems)
{
    std::string text = "the shards do not tile the map's range:";
    for (std::size_t i = 0; i < problems.size() && i < kProblemsShown; ++i)
        text += "\n  " + problems[i];
    if (problems.size() > kProblemsShown)
        text += "\n  ... and " + std::to_string(problems.size() - kProblemsShown) + " more";
    return text;
}

} // namespace

int mergeMapShards(const MergeOptions &options)
{
    if (!options.outPath.ends_with(".jsonl"))
        return reportError(ExitBadUsage, "--out expects a .jsonl file for a map, got " + options.outPath);
    const std::vector<std::string> &paths = options.shardPaths;
    std::vector<MapFile> files(paths.size());
    std::vector<std::optional<Provenance>> headers;
    std::string error;
    for (std::size_t i = 0; i < files.size(); ++i) {
        if (!files[i].read(paths[i], error))
            return reportError(ExitBadInput, error);
        headers.push_back(files[i].header());
    }
    if (const std::string problem = checkShardHeaders(paths, headers, "map"); !problem.empty())
        return reportError(ExitBadInput, problem);
    const Provenance &header = *headers[0];
    const nlohmann::ordered_json &fields = header.fields();
    const nlohmann::ordered_json range = fields.value("range", nlohmann::ordered_json::object());
    const ByteRange whole{range.value("from_bytes", Bytes{0}), range.value("to_bytes", Bytes{0})};
    const std::string runtime = fields.value("runtime", std::string());
    const double limit = fields.value("overhead_limit", 2.0);

    std::map<std::string, std::vector<Found>> byPolicy;
    for (const nlohmann::ordered_json &policy : fields.value("policies", nlohmann::ordered_json::array()))
        byPolicy[policy.get<std::string>()];
    std::vector<std::string> problems;
    std::vector<MapFile::Record> records;
    for (std::size_t i = 0; i < files.size(); ++i)
        for (const MapFile::Record &record : files[i].records()) {
            const std::string heuristic = record.value("heuristic", std::string());
            const auto policy = byPolicy.find(heuristic);
            if (policy == byPolicy.end() || record.value("runtime", std::string()) != runtime
                || record.value("overhead_limit", 2.0) != limit) {
                problems.push_back(paths[i] + " has an interval of another map (" + heuristic + ", "
                                   + record.value("runtime", std::string()) + ", overhead limit "
                                   + record.value("overhead_limit", nlohmann::ordered_json()).dump()
                                   + ") than its provenance line names");
                continue;
            }
            const RunResult result = *mapRecordFromJson(record);
            policy->second.push_back({result.interval.lo, result.interval.hi, i});
            records.push_back(record);
        }
    const Tiling tiling(whole, shardField(header, "count"), paths);
    for (const auto &[heuristic, found] : byPolicy)
        tiling.check(heuristic, found, problems);
    if (!problems.empty())
        return reportError(ExitBadInput, report(problems));
    Provenance merged = header;
    merged.erase("shard");
    merged.set("command", Provenance::commandLine());
    const std::size_t count = records.size();
    if (!MapFile::writeSorted(options.outPath, merged, std::move(records), error))
        return reportError(ExitBadInput, error);
    std::cerr << "merge: " << count << " intervals from " << files.size() << " map shards into " << options.outPath
              << std::endl;
    return ExitOk;
}

} // namespace rematlens
