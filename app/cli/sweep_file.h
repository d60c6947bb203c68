#pragma once

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
// rewrites it in grid order.
class SweepFile {
public:
    enum class Format { JsonLines, Csv };
    using Record = nlohmann::ordered_json;
    // heuristic, runtime, overhead limit, budget, tensors kept resident (joined by spaces):
    // what identifies a run of one trace
    using Key = std::tuple<std::string, std::string, double, std::int64_t, std::string>;

    static std::optional<Format> formatFor(const std::string &path);
    static Key keyOf(const Record &record);

    // Reads what the file already holds (a missing file is empty). False, with a message that
    // names the file and line, when its content is not a sweep's.
    bool open(const std::string &path, std::string &error);
    // Reads a finished (or interrupted) sweep's records without writing to the file; nothing,
    // with a message naming the file, when it is missing or not a sweep's.
    static std::optional<std::vector<Record>> read(const std::string &path, std::string &error);
    bool contains(const Key &key) const { return m_index.count(key) != 0; }
    const Record *find(const Key &key) const; // the record of that run, if the file has it
    static Key keyFor(const RunRequest &request);
    std::size_t size() const { return m_records.size(); }

    bool append(const Record &record, std::string &error);
    bool finish(std::string &error);

    static const std::vector<std::string> &csvColumns();
    static std::string toCsvRow(const Record &record);

private:
    bool load(std::string &error);
    bool write(std::ostream &out, const Record &record) const;

    std::string m_path;
    Format m_format = Format::JsonLines;
    std::vector<Record> m_records;
    std::map<Key, std::size_t> m_index; // into m_records
    std::ofstream m_out;
};

} // namespace rematlens
