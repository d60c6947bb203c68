// rematlens merge: the files of every shard of a sweep (sweep --shard I/N) joined into the file
// the whole sweep writes, after checking that every run is there exactly once.
#include "commands.h"
#include "app/requests/request_reporter.h"
#include "app/distribution/map_merge.h"
#include "app/distribution/shard.h"
#include "app/formats/sweep_file.h"

#include "core/sweep/decimal_grid.h"

#include <algorithm>
#include <iostream>
#include <map>

namespace rematlens {

namespace {

using Record = SweepFile::Record;
using RunKey = std::pair<std::string, double>; // heuristic, ratio

constexpr std::size_t kProblemsShown = 20;

class Completeness {
public:
    Completeness(const Provenance &header, const std::vector<GridPoint> &grid, const std::vector<std::string> &paths,
                 const std::vector<SweepFile> &files)
        : m_header(header.fields()), m_count(std::max<std::size_t>(1, shardField(header, "count")))
    {
        for (std::size_t i = 0; i < files.size(); ++i)
            m_fileOfShard[shardField(*files[i].header(), "index")] = i;
        std::size_t run = 0;
        for (const Record &heuristic : m_header.value("policies", Record::array()))
            for (const GridPoint &point : grid)
                m_expected.emplace(RunKey{heuristic.get<std::string>(), point.ratio}, Expected{point.text, run++, {}});
        for (std::size_t i = 0; i < files.size(); ++i)
            for (const Record &record : files[i].records())
                see(record, paths[i]);
        for (const auto &[key, expected] : m_expected) {
            const std::string what = key.first + " at ratio " + expected.ratio;
            if (expected.foundIn.empty())
                problem(what + " is missing (shard " + std::to_string(expected.run % m_count) + "/"
                        + std::to_string(m_count) + ": " + paths[m_fileOfShard[expected.run % m_count]] + ")");
            else if (expected.foundIn.size() > 1)
                problem(what + " is there " + std::to_string(expected.foundIn.size()) + " times: in "
                        + listFiles(expected.foundIn));
        }
    }

    // Empty when every run is there once.
    std::string report() const
    {
        if (m_problems.empty())
            return {};
        std::string text = "the shards do not make a whole sweep:";
        for (std::size_t i = 0; i < m_problems.size() && i < kProblemsShown; ++i)
            text += "\n  " + m_problems[i];
        if (m_problems.size() > kProblemsShown)
            text += "\n  ... and " + std::to_string(m_problems.size() - kProblemsShown) + " more";
        return text;
    }

private:
    struct Expected {
        std::string ratio; // as the grid writes it
        std::size_t run;   // in the whole sweep, policy-major
        std::vector<std::string> foundIn;
    };

    void see(const Record &record, const std::string &path)
    {
        const std::string heuristic = record.value("heuristic", std::string());
        const Record ratio = record.value("ratio", Record());
        const auto found = ratio.is_number() ? m_expected.find({heuristic, ratio.get<double>()}) : m_expected.end();
        if (found == m_expected.end()) {
            problem(path + " has a run that is not in the sweep: " + heuristic + " at ratio " + ratio.dump());
            return;
        }
        if (record.value("runtime", std::string()) != m_header.value("runtime", std::string())
            || record.value("overhead_limit", Record()) != m_header.value("overhead_limit", Record()))
            problem(path + ": " + heuristic + " at ratio " + found->second.ratio
                    + " has another runtime or overhead limit than its header");
        found->second.foundIn.push_back(path);
    }

    void problem(std::string text) { m_problems.push_back(std::move(text)); }

    const Record &m_header;
    std::size_t m_count;
    std::map<std::size_t, std::size_t> m_fileOfShard;
    std::map<RunKey, Expected> m_expected;
    std::vector<std::string> m_problems;
};

} // namespace

int runMergeCommand(const MergeOptions &options)
{
    if (!options.shardPaths.empty()) {
        const std::optional<Provenance> first = Provenance::readFrom(options.shardPaths[0]);
        if (first && first->fields().contains("range"))
            return mergeMapShards(options);
    }
    const std::optional<SweepFile::Format> format = SweepFile::formatFor(options.outPath);
    if (!format)
        return reportError(ExitBadUsage, "--out expects a .jsonl or .csv file, got " + options.outPath);
    std::vector<SweepFile> files(options.shardPaths.size());
    std::string error;
    for (std::size_t i = 0; i < files.size(); ++i)
        if (!files[i].read(options.shardPaths[i], error))
            return reportError(ExitBadInput, error);
    std::vector<std::optional<Provenance>> headers;
    for (const SweepFile &file : files)
        headers.push_back(file.header());
    if (const std::string problem = checkShardHeaders(options.shardPaths, headers, "sweep"); !problem.empty())
        return reportError(ExitBadInput, problem);
    const Provenance &header = *files[0].header();
    const Record gridFields = header.fields().value("grid", Record::object());
    const std::optional<std::vector<GridPoint>> grid =
        DecimalGrid::make(gridFields.value("from", std::string()), gridFields.value("to", std::string()),
                          gridFields.value("step", std::string()), error);
    if (!grid)
        return reportError(ExitBadInput, options.shardPaths[0] + ":1: the header's grid is not valid: " + error);
    if (const std::string problem = Completeness(header, *grid, options.shardPaths, files).report(); !problem.empty())
        return reportError(ExitBadInput, problem);
    std::vector<Record> records;
    for (const SweepFile &file : files)
        records.insert(records.end(), file.records().begin(), file.records().end());
    const std::size_t count = records.size();
    // The whole sweep's provenance: the shards' without the shard, made by this merge.
    Provenance whole = header;
    whole.erase("shard");
    whole.set("command", Provenance::commandLine());
    if (!SweepFile::writeSorted(options.outPath, *format, whole, std::move(records), error))
        return reportError(ExitBadInput, error);
    std::cerr << "merge: " << count << " runs from " << files.size() << " shards into " << options.outPath << std::endl;
    return ExitOk;
}

} // namespace rematlens
