#pragma once

#include "map_record.h"

#include "provenance.h"

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
    // a map grows by the bytes it did not cover yet). The file then stays as it was.
    bool open(const std::string &path, const Provenance &header, std::string &error);
    std::vector<RunResult> intervalsOf(const MapIdentity &identity) const;
    std::size_t size() const { return m_records.size(); }

    bool append(const Record &record, std::string &error);
    bool finish(std::string &error);

private:
    bool load(std::string &error);

    std::string m_path;
    std::optional<Provenance> m_header;
    std::vector<Record> m_records;
    std::ofstream m_out;
};

} // namespace rematlens
