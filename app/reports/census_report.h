#pragma once

#include "app/reports/hole_report.h"

#include "core/analysis/hole_census.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace rematlens {

// One map's census as explain prints it: the map's settings and range, then its holes.
struct CensusReport {
    std::string settings;                 // one line: trace, policy, runtime, limit
    nlohmann::ordered_json settingsJson;  // the same fields as records name them
    ByteRange range;
    HoleCensus census;
};

nlohmann::ordered_json censusesJson(const std::vector<CensusReport> &reports, const HoleReportContext &context);
// A line or three per hole, then the table of mechanisms.
std::string censusesText(const std::vector<CensusReport> &reports, const HoleReportContext &context);

} // namespace rematlens
