#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <fstream>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace rematlens {

// The --out file of a sweep (JSON lines or CSV by extension). Records are appended and flushed
// as runs finish, so an interrupted sweep keeps everything that finished; reopening the file
// resumes by skipping what it already holds; finish() rewrites it in grid order.
class SweepFile {
public:
    enum class Format { JsonLines, Csv };
    using Record = nlohmann::ordered_json;
    // heuristic, runtime, overhead limit, budget: what identifies a run of one trace
    using Key = std::tuple<std::string, std::string, double, std::int64_t>;

    static std::optional<Format> formatFor(const std::string &path);
    static Key keyOf(const Record &record);

    // Reads what the file already holds (a missing file is empty). False, with a message that
    // names the file and line, when its content is not a sweep's.
    bool open(const std::string &path, std::string &error);
    bool contains(const Key &key) const { return m_keys.count(key) != 0; }
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
    std::set<Key> m_keys;
    std::ofstream m_out;
};

} // namespace rematlens
