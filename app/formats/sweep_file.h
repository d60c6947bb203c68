#pragma once

#include "app/formats/provenance.h"

#include "core/sim/run_request.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <fstream>
#include <optional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace rematlens {

// The --out file of a sweep (JSON lines or CSV by extension). Records are appended and flushed
// as runs finish, so an interrupted sweep keeps everything that finished (a record cut short by
// a kill is dropped); reopening the file resumes by skipping what it already holds; finish()
// rewrites it in grid order. The file starts with its provenance (which trace, build and
// settings, and for sweep --shard which shard): a file whose provenance differs from the sweep's
// is refused, unchanged, so that no file mixes the runs of two sweeps.
// The file's content up to its last newline: a last line cut short by a kill is not a record.
std::string readCompleteLines(const std::string &path);

class SweepFile {
public:
    enum class Format { JsonLines, Csv };
    using Record = nlohmann::ordered_json;
    // heuristic, runtime, overhead limit, budget, tensors kept resident (joined by spaces),
    // allocator model (allocatorKey), seed: what identifies a run of one trace
    using Key = std::tuple<std::string, std::string, double, std::int64_t, std::string, std::string, std::uint64_t>;

    static std::optional<Format> formatFor(const std::string &path);
    // A record's seed is its "seed" (written for a random policy's draws), else the file's.
    static Key keyOf(const Record &record, std::uint64_t fileSeed = 0);

    // Reads what the file already holds (a missing file is empty). False, with a message that
    // names the file and line, when its content is not a sweep's.
    bool open(const std::string &path, std::string &error);
    // Reads a finished (or interrupted) sweep's records without writing to the file; nothing,
    // with a message naming the file, when it is missing or not a sweep's.
    static std::optional<std::vector<Record>> readRecords(const std::string &path, std::string &error);
    // Reads a file without changing it (a last line cut short is ignored); any header is kept.
    bool read(const std::string &path, std::string &error);
    // The provenance this file must have (set before open) or, after read, the one it has.
    void setHeader(const Provenance &header)
    {
        m_header = header;
        m_fileSeed = header.seed();
    }
    const std::optional<Provenance> &header() const { return m_header; }
    const std::vector<Record> &records() const { return m_records; }
    bool contains(const Key &key) const { return m_index.count(key) != 0; }
    const Record *find(const Key &key) const; // the record of that run, if the file has it
    static Key keyFor(const RunRequest &request);
    std::size_t size() const { return m_records.size(); }

    bool append(const Record &record, std::string &error);
    bool finish(std::string &error);

    static const std::vector<std::string> &csvColumns();
    static std::string toCsvRow(const Record &record);
    // The records in grid order, replacing the file at path at once (through path.tmp).
    static bool writeSorted(const std::string &path, Format format, const std::optional<Provenance> &header,
                            std::vector<Record> records, std::string &error);

private:
    bool load(std::string &error);
    bool checkHeader(const std::optional<Provenance> &found, std::string &error) const;
    static std::string headerLine(Format format, const Provenance &header);
    static bool write(std::ostream &out, Format format, const Record &record);

    std::string m_path;
    Format m_format = Format::JsonLines;
    std::vector<Record> m_records;
    std::map<Key, std::size_t> m_index; // into m_records
    std::ofstream m_out;
    std::optional<Provenance> m_header;
    std::uint64_t m_fileSeed = 0; // the header's seed: the records' unless they name their own
    bool m_readOnly = false;
};

} // namespace rematlens
