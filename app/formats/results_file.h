#pragma once

#include "app/formats/provenance.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace rematlens {

// A results file read for checking (confirm, verify): its provenance and its run records,
// whether it is a sweep's (sweep, compare, merge: one record a line, or CSV), a holes report
// (holes --out: each hole's failing runs and the passing runs on both sides) or any JSON-lines
// file whose lines are run records.
class ResultsFile {
public:
    using Record = nlohmann::ordered_json;

    // Nothing, with a message naming the file and line, when it cannot be read, has no
    // provenance (the trace's hash is what makes a check meaningful) or its trace is not found:
    // givenTrace if not empty, else the provenance's file name beside the results file, then in
    // the working directory.
    static std::optional<ResultsFile> read(const std::string &path, const std::string &givenTrace, std::string &error);

    const Provenance &provenance() const { return m_provenance; }
    const std::vector<Record> &records() const { return m_records; }
    bool isHolesReport() const { return m_holesReport; }

    // The runs that make holes: of each configuration (policy, runtime, limit, keep), every
    // maximal run of failing budgets with a passing budget below and above, and those two
    // passing runs. A holes report's records are exactly these already.
    std::vector<Record> holeRecords() const;

    const std::string &tracePath() const { return m_tracePath; } // or ":demo"

private:
    bool readHolesReport(const Record &report);
    std::string locateTrace(const std::string &given, std::string &error) const;

    std::string m_path;
    std::string m_tracePath;
    Provenance m_provenance;
    std::vector<Record> m_records;
    bool m_holesReport = false;
};

} // namespace rematlens
