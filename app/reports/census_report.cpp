#include "app/reports/census_report.h"

#include "app/reports/run_report.h"

#include <iomanip>
#include <sstream>

namespace rematlens {

namespace {

using Json = nlohmann::ordered_json;

// "oom at step 1909, depth 8, 63,657,564 B short" or "thrash at step 12, overhead 2.00x"
std::string failureText(const EdgeStory &s, const HoleReportContext &c)
{
    const RunResult &r = s.failing();
    if (r.failure)
        return "oom at step " + std::to_string(r.failure->step) + ", depth " + std::to_string(r.failure->depth) + ", "
               + groupDigits(r.failure->bytesShort) + " B short";
    return std::string(outcomeName(r.outcome)) + " at step " + std::to_string(s.cascade.step) + ", overhead "
           + fixedDigits(overheadOf(r, c.baseline), 2) + "x";
}

std::string storyLine(const EdgeStory &s, const HoleReportContext &c)
{
    std::ostringstream out;
    if (s.avoided)
        out << "step " << s.avoided->step << ": evicting " << c.tensorName(s.avoided->victim) << " ("
            << groupDigits(s.avoided->victimBytes) << " B) avoided";
    else
        out << "no avoided eviction";
    if (s.later) {
        out << "; then " << c.tensorName(s.later->tensor) << " evicted at step " << s.later->step;
        if (s.later->neededAtStep)
            out << ", needed " << s.later->operatorsUntilNeeded << " operators later";
    }
    out << ";\n              " << failureText(s, c);
    if (s.rescued)
        out << "; " << s.rescue.rescues.size() << " rescues";
    return out.str();
}

void printHole(std::ostream &out, std::size_t k, const MapHole &hole, const std::optional<HoleAnatomy> &anatomy,
               const HoleReportContext &c)
{
    out << "  hole " << k + 1 << "  " << budgetText(hole.firstFail, c.baseline) << " .. "
        << budgetText(hole.lastFail, c.baseline) << ", " << groupDigits(hole.lastFail - hole.firstFail + 1)
        << " B wide\n";
    if (!anatomy) {
        out << "    not explained: budgets inside it are unmapped\n";
        return;
    }
    out << "    " << holeMechanismName(anatomy->mechanism) << "\n      opens: " << storyLine(anatomy->lower, c)
        << "\n      closes: " << storyLine(anatomy->upper, c) << "\n";
}

Json classesJson(const HoleCensus &census)
{
    Json classes = Json::array();
    for (const HoleClassCount &k : census.classes)
        classes.push_back(Json{{"mechanism", std::string(holeMechanismName(k.mechanism))},
                               {"sentence", std::string(holeMechanismSentence(k.mechanism))},
                               {"holes", k.holes},
                               {"bytes", k.bytes}});
    return classes;
}

} // namespace

Json censusesJson(const std::vector<CensusReport> &reports, const HoleReportContext &context)
{
    Json maps = Json::array();
    for (const CensusReport &r : reports) {
        Json j = r.settingsJson;
        j["from_byte"] = r.range.from;
        j["to_byte"] = r.range.end - 1;
        Json holes = Json::array();
        for (std::size_t k = 0; k < r.census.holes.size(); ++k)
            holes.push_back(r.census.anatomies[k] ? holeAnatomyJson(*r.census.anatomies[k], context)
                                                  : Json{{"first_fail_byte", r.census.holes[k].firstFail},
                                                         {"last_fail_byte", r.census.holes[k].lastFail},
                                                         {"mechanism", nullptr},
                                                         {"unmapped_inside", true}});
        j["holes"] = holes;
        j["classes"] = classesJson(r.census);
        j["replays"] = r.census.replays;
        maps.push_back(j);
    }
    return Json{{"maps", maps}};
}

std::string censusesText(const std::vector<CensusReport> &reports, const HoleReportContext &context)
{
    std::ostringstream out;
    for (const CensusReport &r : reports) {
        out << r.settings << "  " << r.census.holes.size() << " holes in " << budgetText(r.range.from, context.baseline)
            << " .. " << budgetText(r.range.end - 1, context.baseline) << "\n";
        for (std::size_t k = 0; k < r.census.holes.size(); ++k)
            printHole(out, k, r.census.holes[k], r.census.anatomies[k], context);
        out << "  " << std::left << std::setw(32) << "mechanism" << std::right << std::setw(7) << "holes"
            << std::setw(18) << "budget bytes" << "\n";
        for (const HoleClassCount &k : r.census.classes)
            out << "  " << std::left << std::setw(32) << holeMechanismName(k.mechanism) << std::right << std::setw(7)
                << k.holes << std::setw(18) << groupDigits(k.bytes) << "\n";
        out << "  " << r.census.replays << " replays\n";
    }
    return out.str();
}

} // namespace rematlens
