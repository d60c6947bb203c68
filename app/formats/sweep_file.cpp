#include "app/formats/sweep_file.h"

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <sstream>

namespace rematlens {

namespace {

bool endsWith(const std::string &text, const std::string &suffix)
{
    return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string csvField(const nlohmann::ordered_json &value)
{
    if (value.is_null())
        return {};
    if (!value.is_string())
        return value.dump();
    const std::string text = value.get<std::string>();
    if (text.find_first_of(",\"\n") == std::string::npos)
        return text;
    std::string quoted = "\"";
    for (char c : text) {
        quoted += c;
        if (c == '"')
            quoted += '"';
    }
    return quoted + "\"";
}

std::vector<std::string> splitCsv(const std::string &line)
{
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"')
                fields.back() += line[++i];
            else if (c == '"')
                quoted = false;
            else
                fields.back() += c;
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields.emplace_back();
        } else {
            fields.back() += c;
        }
    }
    return fields;
}

// CSV cells back into the record's JSON shape: numbers where they parse as numbers.
nlohmann::ordered_json cellValue(const std::string &cell)
{
    if (cell.empty())
        return nullptr;
    const nlohmann::ordered_json parsed = nlohmann::ordered_json::parse(cell, nullptr, false);
    return parsed.is_number() ? parsed : nlohmann::ordered_json(cell);
}

} // namespace

std::optional<SweepFile::Format> SweepFile::formatFor(const std::string &path)
{
    if (endsWith(path, ".jsonl") || endsWith(path, ".json"))
        return Format::JsonLines;
    if (endsWith(path, ".csv"))
        return Format::Csv;
    return std::nullopt;
}

namespace {

std::string joinKept(const std::vector<std::string> &names)
{
    std::string joined;
    for (const std::string &name : names) {
        if (!joined.empty())
            joined += ' ';
        joined += name;
    }
    return joined;
}

} // namespace

SweepFile::Key SweepFile::keyOf(const Record &record, std::uint64_t fileSeed)
{
    const auto keep = record.find("keep");
    const std::vector<std::string> kept =
        keep != record.end() && keep->is_array() ? keep->get<std::vector<std::string>>() : std::vector<std::string>();
    return {record.value("heuristic", std::string()), record.value("runtime", std::string()),
            record.value("overhead_limit", 2.0), record.value("budget", std::int64_t{-1}), joinKept(kept),
            record.value("allocator", std::string("sum")), record.value("seed", fileSeed)};
}

SweepFile::Key SweepFile::keyFor(const RunRequest &request)
{
    return {request.config.policy.name, std::string(simrdRuntimeName(request.config.runtime)), request.overheadLimit,
            request.config.budget, joinKept(request.keep), allocatorKey(request.config.allocator), request.config.seed};
}

const std::vector<std::string> &SweepFile::csvColumns()
{
    static const std::vector<std::string> columns{
        "trace", "heuristic", "runtime", "ratio", "budget", "overhead_limit", "result", "clock", "remat_compute",
        "max_memory", "memory_at_end", "evictions", "released_evictions", "remats", "heuristic_evals", "overhead",
        "seconds", "failure_step", "failure_line", "failure_operator", "failure_tensor", "failure_bytes_needed",
        "failure_memory_in_use", "failure_bytes_short", "failure_depth", "failure_locked_bytes"};
    return columns;
}

std::string SweepFile::toCsvRow(const Record &record)
{
    std::string row;
    const std::vector<std::string> &columns = csvColumns();
    for (std::size_t i = 0; i < columns.size(); ++i) {
        const std::string &column = columns[i];
        if (i > 0)
            row += ',';
        if (column.rfind("failure_", 0) == 0) {
            const auto failure = record.find("failure");
            if (failure != record.end())
                row += csvField(failure->value(column.substr(8), nlohmann::ordered_json()));
        } else {
            row += csvField(record.value(column, nlohmann::ordered_json()));
        }
    }
    return row;
}

// A sweep killed while writing (SIGKILL, power loss) can leave its last record without its
// newline: that record was in flight, so it is dropped and will be run again.
static void dropUnfinishedLastLine(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    const std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (content.empty() || content.back() == '\n')
        return;
    const std::size_t keep = content.find_last_of('\n');
    std::filesystem::resize_file(path, keep == std::string::npos ? 0 : keep + 1);
}

bool SweepFile::open(const std::string &path, std::string &error)
{
    m_path = path;
    m_format = formatFor(path).value_or(Format::JsonLines);
    // Checked before anything is written: a refused file stays as it was, byte for byte.
    if (std::filesystem::exists(path) && !load(error))
        return false;
    if (std::filesystem::exists(path))
        dropUnfinishedLastLine(path);
    m_out.open(path, std::ios::app);
    if (!m_out) {
        error = path + ": cannot open the file for writing";
        return false;
    }
    if (m_records.empty() && std::filesystem::file_size(path) == 0) {
        if (m_header)
            m_out << headerLine(m_format, *m_header);
        if (m_format == Format::Csv) {
            std::string header;
            for (const std::string &column : csvColumns())
                header += (header.empty() ? "" : ",") + column;
            m_out << header << '\n';
        }
        m_out << std::flush;
    }
    return true;
}

std::optional<std::vector<SweepFile::Record>> SweepFile::readRecords(const std::string &path, std::string &error)
{
    const std::optional<Format> format = formatFor(path);
    if (!format) {
        error = path + ": expected a sweep file ending in .jsonl or .csv";
        return std::nullopt;
    }
    if (!std::filesystem::is_regular_file(path)) {
        error = path + ": no such sweep file";
        return std::nullopt;
    }
    SweepFile file;
    if (!file.read(path, error))
        return std::nullopt;
    return std::move(file.m_records);
}

bool SweepFile::read(const std::string &path, std::string &error)
{
    m_path = path;
    m_format = formatFor(path).value_or(Format::JsonLines);
    m_readOnly = true;
    m_header.reset();
    if (!std::filesystem::exists(path)) {
        error = path + ": no such file";
        return false;
    }
    return load(error);
}

std::string SweepFile::headerLine(Format format, const Provenance &header)
{
    return format == Format::Csv ? header.csvLine() : header.jsonLine();
}

bool SweepFile::checkHeader(const std::optional<Provenance> &found, std::string &error) const
{
    if (m_readOnly)
        return true;
    const std::string refused = m_path + ":1: not resuming into this file (left unchanged): ";
    if (!found && m_header)
        error = refused + "it has no provenance line, so nothing says which sweep wrote it";
    else if (found && !m_header)
        error = refused + "it holds the results of a command with provenance, " + found->fields().dump();
    else if (found && m_header) {
        const std::string field = m_header->firstDifference(*found);
        if (field.empty())
            return true;
        error = refused + "it was written by another command: " + m_header->describeDifference(*found, field, "the file", "this command");
    } else
        return true;
    return false;
}

std::string readCompleteLines(const std::string &path)
{
    std::ifstream file(path, std::ios::binary);
    std::string content((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    const std::size_t lastNewline = content.find_last_of('\n');
    content.resize(lastNewline == std::string::npos ? 0 : lastNewline + 1);
    return content;
}

bool SweepFile::load(std::string &error)
{
    const std::string content = readCompleteLines(m_path);
    std::istringstream in(content);
    std::string line;
    std::vector<std::string> header;
    std::optional<Provenance> foundHeader;
    for (int number = 1; std::getline(in, line); ++number) {
        if (line.empty())
            continue;
        if (number == 1 && (foundHeader = Provenance::parse(line))) {
            m_fileSeed = foundHeader->seed();
            continue;
        }
        if (number <= 2 && !checkHeader(foundHeader, error))
            return false;
        Record record;
        if (m_format == Format::JsonLines) {
            record = Record::parse(line, nullptr, false);
            if (!record.is_object() || !record.contains("budget") || !record.contains("heuristic")) {
                error = m_path + ":" + std::to_string(number) + ": expected a sweep record (a JSON object with "
                        "\"heuristic\" and \"budget\"); not resuming into a file that is not a sweep's";
                return false;
            }
        } else {
            const std::vector<std::string> cells = splitCsv(line);
            if (header.empty()) {
                header = cells;
                if (header != csvColumns()) {
                    error = m_path + ":1: expected the CSV header of a sweep (trace,heuristic,runtime,...)";
                    return false;
                }
                continue;
            }
            if (cells.size() != header.size()) {
                error = m_path + ":" + std::to_string(number) + ": expected " + std::to_string(header.size())
                        + " CSV fields, found " + std::to_string(cells.size());
                return false;
            }
            Record failure;
            for (std::size_t i = 0; i < cells.size(); ++i) {
                if (header[i].rfind("failure_", 0) == 0) {
                    if (!cells[i].empty())
                        failure[header[i].substr(8)] = cellValue(cells[i]);
                } else {
                    record[header[i]] = cellValue(cells[i]);
                }
            }
            if (!failure.empty())
                record["failure"] = failure;
        }
        m_index[keyOf(record, m_fileSeed)] = m_records.size();
        m_records.push_back(std::move(record));
    }
    if (m_readOnly)
        m_header = foundHeader;
    return content.empty() || checkHeader(foundHeader, error);
}

bool SweepFile::write(std::ostream &out, Format format, const Record &record)
{
    if (format == Format::Csv)
        out << toCsvRow(record) << '\n';
    else
        out << record.dump() << '\n';
    return static_cast<bool>(out);
}

const SweepFile::Record *SweepFile::find(const Key &key) const
{
    const auto found = m_index.find(key);
    return found == m_index.end() ? nullptr : &m_records[found->second];
}

bool SweepFile::append(const Record &record, std::string &error)
{
    m_index[keyOf(record, m_fileSeed)] = m_records.size();
    m_records.push_back(record);
    if (!write(m_out, m_format, record) || !m_out.flush()) {
        error = m_path + ": cannot write (disk full?)";
        return false;
    }
    return true;
}

bool SweepFile::finish(std::string &error)
{
    m_out.close();
    return writeSorted(m_path, m_format, m_header, m_records, error);
}

bool SweepFile::writeSorted(const std::string &path, Format format, const std::optional<Provenance> &header,
                            std::vector<Record> records, std::string &error)
{
    std::stable_sort(records.begin(), records.end(),
                     [](const Record &a, const Record &b) { return keyOf(a) < keyOf(b); });
    const std::string temporary = path + ".tmp";
    {
        std::ofstream out(temporary, std::ios::trunc);
        if (header)
            out << headerLine(format, *header);
        if (format == Format::Csv) {
            std::string columns;
            for (const std::string &column : csvColumns())
                columns += (columns.empty() ? "" : ",") + column;
            out << columns << '\n';
        }
        for (const Record &record : records)
            write(out, format, record);
        if (!out.flush()) {
            error = temporary + ": cannot write";
            return false;
        }
    }
    std::error_code ec;
    std::filesystem::rename(temporary, path, ec);
    if (ec) {
        error = path + ": cannot replace the file: " + ec.message();
        return false;
    }
    return true;
}

} // namespace rematlens
