#pragma once

#include "app/reports/hole_story.h"

#include <nlohmann/json.hpp>

#include <string>

namespace rematlens {

// How explain writes a hole's anatomy: every number as JSON, and sentences that fit a terminal
// (hole_story.h builds them).

nlohmann::ordered_json edgeStoryJson(const EdgeStory &story, const HoleReportContext &context);
nlohmann::ordered_json holeAnatomyJson(const HoleAnatomy &anatomy, const HoleReportContext &context);

// "2,634,785,266 B (0.2343)"
std::string budgetText(Bytes budget, const Baseline &baseline);
std::string edgeStoryText(const EdgeStory &story, const HoleReportContext &context);
std::string holeAnatomyText(const HoleAnatomy &anatomy, const HoleReportContext &context);

} // namespace rematlens
