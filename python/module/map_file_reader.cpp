#include "map_file_reader.h"

#include "python_request.h"
#include "python_values.h"
#include "record_columns.h"

#include "app/formats/gzip_line_reader.h"
#include "app/formats/map_record.h"
#include "app/formats/provenance.h"
#include "app/reports/map_report.h"

#include "core/map/map_summary.h"

#include <simdjson.h>

#include <fstream>
#include <map>
#include <tuple>

namespace rematlens {

namespace {

using Element = simdjson::dom::element;

[[noreturn]] void fail(const std::string &message)
{
    PyErr_SetString(PythonErrors::input, message.c_str());
    throw py::error_already_set();
}

// The file's lines, gzip-compressed or not.
class Lines {
public:
    explicit Lines(const std::string &path) : m_path(path)
    {
        std::ifstream probe(path, std::ios::binary);
        if (!probe)
            fail(path + ": cannot read the file");
        m_gzip = probe.get() == 0x1f && probe.get() == 0x8b;
        std::string error;
        if (m_gzip && !m_gzipLines.open(path, error))
            fail(error);
        if (!m_gzip)
            m_plain.open(path);
    }
    bool next(std::string &line)
    {
        ++m_number;
        if (!m_gzip)
            return static_cast<bool>(std::getline(m_plain, line));
        std::string error;
        const bool more = m_gzipLines.next(line, error);
        if (!error.empty())
            fail(error);
        return more;
    }
    std::string where() const { return m_path + ":" + std::to_string(m_number); }

private:
    std::string m_path;
    bool m_gzip = false;
    GzipLineReader m_gzipLines;
    std::ifstream m_plain;
    int m_number = 0;
};

RecordColumns::Cell cellOf(const Element &value)
{
    switch (value.type()) {
    case simdjson::dom::element_type::INT64: return std::int64_t(value.get_int64());
    case simdjson::dom::element_type::UINT64: return std::int64_t(value.get_uint64());
    case simdjson::dom::element_type::DOUBLE: return double(value.get_double());
    case simdjson::dom::element_type::STRING: return std::string(std::string_view(value.get_string()));
    case simdjson::dom::element_type::BOOL: return bool(value.get_bool());
    case simdjson::dom::element_type::NULL_VALUE: return std::monostate{};
    default: return nlohmann::ordered_json::parse(simdjson::minify(value));
    }
}

// One map of the file: the records' identity.
using MapKey = MapIdentity::Key;

struct FileMap {
    MapIdentity identity;
    std::vector<RunResult> intervals; // lo, hi and the result: what the summary needs
};

// The summary of each map of the file as `map --json` gives it, with its holes.
py::list summaries(const std::map<MapKey, FileMap> &maps, const ByteRange &range, const Baseline &baseline,
                   const std::string &trace)
{
    ExactMap exact;
    exact.trace.name = trace;
    exact.trace.baseline = baseline;
    exact.range = range;
    for (const auto &[key, map] : maps) {
        PolicyMap policy;
        policy.identity = map.identity;
        policy.intervals = sortedIntervals(map.intervals);
        policy.summary = summarizeMap(range, policy.intervals);
        exact.maps.push_back(std::move(policy));
    }
    nlohmann::ordered_json report = exactMapJson(exact, false);
    py::list out;
    for (nlohmann::ordered_json &summary : report["maps"]) {
        py::dict map;
        map["holes"] = recordColumns(std::vector<nlohmann::ordered_json>(summary["holes"].begin(), summary["holes"].end()));
        summary.erase("holes");
        for (const char *walk : {"edges", "replays", "joins", "intervals_from_file", "seconds", "threads"})
            summary.erase(walk); // nothing was walked
        map["summary"] = pythonValue(summary);
        out.append(map);
    }
    return out;
}

} // namespace

py::dict readMapFile(const std::string &path)
{
    Lines lines(path);
    std::string line;
    if (!lines.next(line) || !Provenance::isHeaderLine(line))
        fail(lines.where() + ": expected the provenance of a map file (map --out)");
    const std::optional<Provenance> provenance = Provenance::parse(line);
    if (!provenance || !provenance->fields().contains("range"))
        fail(lines.where() + ": unreadable provenance of a map file");
    const nlohmann::ordered_json &header = provenance->fields();
    const ByteRange range{header["range"].value("from_bytes", Bytes{0}), header["range"].value("to_bytes", Bytes{0})};

    simdjson::dom::parser parser;
    std::vector<std::string> texts;
    while (lines.next(line))
        if (!line.empty())
            texts.push_back(std::move(line));
    RecordColumns columns(texts.size());
    std::map<MapKey, FileMap> maps;
    double baseline = 0;
    for (std::size_t r = 0; r < texts.size(); ++r) {
        simdjson::dom::object record;
        if (parser.parse(texts[r]).get_object().get(record) != simdjson::SUCCESS)
            fail(path + ":" + std::to_string(r + 2) + ": expected a map record (a JSON object)");
        RunResult interval;
        MapIdentity identity;
        bool resolved = false;
        for (auto [key, value] : record) {
            if (value.type() == simdjson::dom::element_type::OBJECT)
                for (auto [inner, item] : simdjson::dom::object(value))
                    columns.set(r, std::string(key) + "." + std::string(inner), cellOf(item));
            else
                columns.set(r, key, cellOf(value));
            if (key == "lo")
                interval.interval.lo = Bytes(value.get_int64());
            else if (key == "hi" && !value.is_null())
                interval.interval.hi = Bytes(value.get_int64());
            else if (key == "result")
                if (const std::optional<Outcome> outcome = findOutcome(std::string_view(value.get_string())))
                    std::tie(interval.outcome, resolved) = std::pair(*outcome, isResolved(*outcome));
            if (key == "heuristic")
                identity.heuristic = std::string_view(value.get_string());
            else if (key == "runtime")
                identity.runtime = std::string_view(value.get_string());
            else if (key == "overhead_limit")
                identity.overheadLimit = double(value.get_double());
            else if (key == "trace")
                identity.trace = std::string_view(value.get_string());
            else if (key == "allocator")
                identity.allocator = std::string_view(value.get_string());
            else if (key == "lo_ratio" && baseline == 0 && double(value.get_double()) > 0)
                baseline = double(interval.interval.lo) / double(value.get_double());
        }
        if (!resolved)
            fail(path + ":" + std::to_string(r + 2) + ": expected a map record with \"lo\", \"hi\" and a resolved \"result\"");
        FileMap &map = maps[identity.key()];
        map.identity = identity;
        map.intervals.push_back(interval);
    }
    py::dict out;
    const std::string trace = header.value("trace", std::string());
    out["trace"] = trace;
    out["range"] = py::make_tuple(range.from, range.end);
    out["baseline"] = Bytes(std::llround(baseline));
    out["interrupted"] = false;
    out["intervals"] = columns.take();
    out["maps"] = summaries(maps, range, Baseline{Bytes(std::llround(baseline)), 0, 0, 0, 0}, trace);
    out["provenance"] = pythonValue(header);
    return out;
}

} // namespace rematlens
