#include "app/formats/results_file.h"

#include "app/formats/sweep_file.h"
#include "app/formats/trace_source.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

namespace rematlens {

namespace {

bool isRunRecord(const ResultsFile::Record &line)
{
    return line.is_object() && line.contains("heuristic") && line.contains("budget");
}

} // namespace

std::optional<ResultsFile> ResultsFile::read(const std::string &path, const std::string &givenTrace, std::string &error)
{
    ResultsFile file;
    file.m_path = path;
    const std::optional<Provenance> provenance = Provenance::readFrom(path);
    if (!provenance) {
        error = path + (std::filesystem::is_regular_file(path) ? ":1: no provenance line, so nothing says which trace "
                                                                 "made these results"
                                                               : ": no such file");
        return std::nullopt;
    }
    file.m_provenance = *provenance;
    file.m_tracePath = file.locateTrace(givenTrace, error);
    if (file.m_tracePath.empty())
        return std::nullopt;
    if (SweepFile::formatFor(path) == SweepFile::Format::Csv) {
        std::optional<std::vector<Record>> records = SweepFile::readRecords(path, error);
        if (!records)
            return std::nullopt;
        file.m_records = std::move(*records);
        return file;
    }
    std::ifstream in(path);
    std::string text;
    std::getline(in, text); // the provenance
    for (int number = 2; std::getline(in, text); ++number) {
        if (text.empty())
            continue;
        const Record line = Record::parse(text, nullptr, false);
        if (line.is_object() && line.contains("holes") && !file.readHolesReport(line)) {
            error = path + ":" + std::to_string(number) + ": expected a holes report whose holes list their runs";
            return std::nullopt;
        }
        if (isRunRecord(line))
            file.m_records.push_back(line);
        else if (!line.is_object() || !line.contains("holes")) {
            error = path + ":" + std::to_string(number) + ": expected a run record (a JSON object with \"heuristic\" "
                                                          "and \"budget\") or a holes report";
            return std::nullopt;
        }
    }
    return file;
}

bool ResultsFile::readHolesReport(const Record &report)
{
    m_holesReport = true;
    for (const Record &hole : report.at("holes")) {
        if (!hole.is_object() || !hole.contains("results"))
            return false;
        for (const Record &run : hole["results"])
            m_records.push_back(run);
        for (const Record &run : hole.value("passes_around", Record::array()))
            m_records.push_back(run);
    }
    return true;
}

std::vector<ResultsFile::Record> ResultsFile::holeRecords() const
{
    if (m_holesReport)
        return m_records;
    std::map<SweepFile::Key, std::vector<const Record *>> byConfiguration; // budget last in the key
    for (const Record &record : m_records) {
        SweepFile::Key key = SweepFile::keyOf(record);
        std::get<3>(key) = 0;
        byConfiguration[key].push_back(&record);
    }
    std::vector<Record> selected;
    for (auto &[key, runs] : byConfiguration) {
        std::sort(runs.begin(), runs.end(),
                  [](const Record *a, const Record *b) { return a->value("budget", 0LL) < b->value("budget", 0LL); });
        const auto result = [&](std::size_t i) { return runs[i]->value("result", std::string()); };
        for (std::size_t i = 1; i + 1 < runs.size(); ++i) {
            if (result(i - 1) != "pass" || (result(i) != "oom" && result(i) != "thrash"))
                continue;
            std::size_t end = i;
            while (end < runs.size() && (result(end) == "oom" || result(end) == "thrash"))
                ++end;
            if (end < runs.size() && result(end) == "pass")
                for (std::size_t k = i - 1; k <= end; ++k)
                    selected.push_back(*runs[k]);
            i = end;
        }
    }
    return selected;
}

std::string ResultsFile::locateTrace(const std::string &given, std::string &error) const
{
    if (!given.empty()) {
        if (given == kDemoTraceName || std::filesystem::is_regular_file(given))
            return given;
        error = given + ": no such trace";
        return {};
    }
    const Record name = m_provenance.fields().value("trace", Record());
    if (!name.is_string()) {
        error = m_path + ":1: the provenance names no single trace; say which with --trace";
        return {};
    }
    const std::string traceName = name.get<std::string>();
    if (traceName == kDemoTraceName)
        return traceName;
    for (const std::filesystem::path &candidate :
         {std::filesystem::path(m_path).parent_path() / traceName, std::filesystem::path(traceName)})
        if (std::filesystem::is_regular_file(candidate))
            return candidate.string();
    error = traceName + ": the trace of " + m_path + " is neither beside it nor in the working directory; say where "
                        "it is with --trace";
    return {};
}

} // namespace rematlens
