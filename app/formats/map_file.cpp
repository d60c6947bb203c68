#include "app/formats/map_file.h"

#include "app/formats/sweep_file.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>

namespace rematlens {

bool MapFile::open(const std::string &path, const Provenance &header, std::string &error)
{
    m_path = path;
    m_header = header;
    if (std::filesystem::exists(path) && !load(error))
        return false;
    // Rewrite what was read, so that a record cut short by a kill is not left in the middle.
    if (!finish(error))
        return false;
    m_out.open(path, std::ios::app | std::ios::binary);
    if (!m_out) {
        error = "cannot write " + path;
        return false;
    }
    return true;
}

bool MapFile::inspect(const std::string &path, const Provenance &header, std::string &error)
{
    m_path = path;
    m_header = header;
    if (!std::filesystem::exists(path)) {
        error = path + ": no such file";
        return false;
    }
    return load(error);
}

bool MapFile::read(const std::string &path, std::string &error)
{
    m_path = path;
    m_header.reset();
    m_records.clear();
    if (!std::filesystem::exists(path)) {
        error = path + ": no such file";
        return false;
    }
    return load(error, false);
}

bool MapFile::writeSorted(const std::string &path, const Provenance &header, std::vector<Record> records,
                          std::string &error)
{
    MapFile file;
    file.m_path = path;
    file.m_header = header;
    file.m_records = std::move(records);
    return file.finish(error);
}

// Every build's intervals are the same (each is checked against simrd), so a map grows under a
// newer build too; the header names the builds that wrote records before this one.
void MapFile::noteEarlierBuilds(const Provenance &found)
{
    Provenance::Json builds = found.fields().value(kEarlierBuilds, Provenance::Json::array());
    const Provenance::Json theirs = found.fields().value("rematlens_commit", Provenance::Json());
    if (!theirs.is_null() && theirs != m_header->fields().value("rematlens_commit", Provenance::Json())
        && std::find(builds.begin(), builds.end(), theirs) == builds.end())
        builds.push_back(theirs);
    if (!builds.empty())
        m_header->set(kEarlierBuilds, builds);
}

bool MapFile::load(std::string &error, bool checkHeader)
{
    std::istringstream in(readCompleteLines(m_path));
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        if (line.empty())
            continue;
        if (number == 1 && Provenance::isHeaderLine(line)) {
            const std::optional<Provenance> found = Provenance::parse(line);
            if (!checkHeader) {
                if (!found) {
                    error = m_path + ":1: unreadable provenance";
                    return false;
                }
                m_header = found;
                continue;
            }
            const std::string field =
                found ? m_header->firstDifference(*found, {"range", "rematlens_version", "rematlens_commit", kEarlierBuilds})
                      : "provenance";
            if (!field.empty()) {
                error = found ? m_path + ": not resuming: " + m_header->describeDifference(*found, field, m_path, "this map")
                              : m_path + ":1: unreadable provenance; not resuming into it";
                return false;
            }
            noteEarlierBuilds(*found);
            continue;
        }
        Record record = Record::parse(line, nullptr, false);
        if (!record.contains("heuristic") || !mapRecordFromJson(record)) {
            error = m_path + ":" + std::to_string(number)
                    + ": expected a map record (a JSON object with \"heuristic\", \"lo\", \"hi\" and a resolved "
                      "\"result\"); not resuming into a file that is not a map's";
            return false;
        }
        m_records.push_back(std::move(record));
    }
    return true;
}

std::vector<RunResult> MapFile::intervalsOf(const MapIdentity &identity) const
{
    std::vector<RunResult> intervals;
    const MapIdentity::Key key = identity.key();
    for (const Record &record : m_records)
        if (MapIdentity::keyOf(record) == key)
            intervals.push_back(*mapRecordFromJson(record));
    return intervals;
}

bool MapFile::append(const Record &record, std::string &error)
{
    m_records.push_back(record);
    m_out << record.dump() << '\n' << std::flush;
    if (!m_out) {
        error = "cannot write " + m_path;
        return false;
    }
    return true;
}

bool MapFile::finish(std::string &error)
{
    auto before = [](const Record &a, const Record &b) {
        return std::make_tuple(MapIdentity::keyOf(a), a["lo"].get<Bytes>())
               < std::make_tuple(MapIdentity::keyOf(b), b["lo"].get<Bytes>());
    };
    auto same = [](const Record &a, const Record &b) {
        return MapIdentity::keyOf(a) == MapIdentity::keyOf(b) && a["lo"] == b["lo"];
    };
    std::stable_sort(m_records.begin(), m_records.end(), before);
    m_records.erase(std::unique(m_records.begin(), m_records.end(), same), m_records.end());
    const bool reopen = m_out.is_open();
    m_out.close();
    const std::string temporary = m_path + ".tmp";
    {
        std::ofstream out(temporary, std::ios::trunc | std::ios::binary);
        if (m_header)
            out << m_header->jsonLine();
        for (const Record &record : m_records)
            out << record.dump() << '\n';
        if (!out) {
            error = "cannot write " + temporary;
            return false;
        }
    }
    std::error_code failed;
    std::filesystem::rename(temporary, m_path, failed);
    if (failed) {
        error = "cannot replace " + m_path + ": " + failed.message();
        return false;
    }
    if (reopen)
        m_out.open(m_path, std::ios::app | std::ios::binary);
    return true;
}

} // namespace rematlens
