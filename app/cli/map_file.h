#pragma once

#include "map_record.h"

#include <nlohmann/json.hpp>

#include <fstream>
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
    // the file and line, when its content is not a map's.
    bool open(const std::string &path, std::string &error);
    std::vector<RunResult> intervalsOf(const MapIdentity &identity) const;
    std::size_t size() const { return m_records.size(); }

    bool append(const Record &record, std::string &error);
    bool finish(std::string &error);

private:
    bool load(std::string &error);

    std::string m_path;
    std::vector<Record> m_records;
    std::ofstream m_out;
};

} // namespace rematlens
