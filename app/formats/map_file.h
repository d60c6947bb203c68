#pragma once

#include "app/formats/map_record.h"

#include "app/formats/provenance.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <optional>
#include <string>
#include <vector>

namespace rematlens {

// The --out file of map (JSON lines, one record per interval), the one place that writes it.
// Records are appended and flushed as intervals finish, so an interrupted map keeps what it
// found (a last line cut short by a kill is dropped); reopening the file resumes: only budgets
// no record covers are walked again. finish() rewrites it sorted by map and lo, repeats dropped.
// Records of other maps (another policy, runtime, limit) are kept as they are.
class MapFile {
public:
    using Record = nlohmann::ordered_json;

    // Reads what the file already holds (a missing file is empty); false, with a message naming
    // the file and line, when its content is not a map's, or in one line which field differs
    // when its provenance is another map's (the same settings over another range may share it:
    // a map grows by the bytes it did not cover yet, under this build or another). The file then
    // stays as it was.
    bool open(const std::string &path, const Provenance &header, std::string &error);
    // As open, but only reads: for a summary of what the file holds (a missing file is an error).
    bool inspect(const std::string &path, const Provenance &header, std::string &error);
    // Reads a map file as it is, its provenance whatever it says, for merge; nothing is written.
    bool read(const std::string &path, std::string &error);
    std::vector<RunResult> intervalsOf(const MapIdentity &identity) const;
    std::size_t size() const { return m_records.size(); }
    const std::optional<Provenance> &header() const { return m_header; }
    const std::vector<Record> &records() const { return m_records; }
    // Writes a whole map file at once (merge): the header, then the records sorted, repeats dropped.
    static bool writeSorted(const std::string &path, const Provenance &header, std::vector<Record> records,
                            std::string &error);

    bool append(const Record &record, std::string &error);
    bool finish(std::string &error);

private:
    // Provenance field: commits of the builds that extended the map before the one now writing it.
    static constexpr const char *kEarlierBuilds = "earlier_builds";

    // checkHeader: refuse a provenance other than m_header's (but for the range and the build);
    // else take the file's.
    bool load(std::string &error, bool checkHeader = true);
    void noteEarlierBuilds(const Provenance &found);

    std::string m_path;
    std::optional<Provenance> m_header;
    std::vector<Record> m_records;
    std::ofstream m_out;
};

} // namespace rematlens
