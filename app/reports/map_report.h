#pragma once

#include "app/requests/exact_map.h"

#include <nlohmann/json.hpp>

#include <string>

namespace rematlens {

// map --json: per policy the summary, every edge explained and, when asked, every interval.
nlohmann::ordered_json exactMapJson(const ExactMap &map, bool withIntervals);
// map's text report; outPath names where the interval records went (empty: nowhere).
std::string exactMapText(const ExactMap &map, const std::string &outPath);

// holes --exact: the map's holes in the holes report's format, to the byte.
nlohmann::ordered_json exactHolesJson(const ExactMap &map);
std::string exactHolesText(const ExactMap &map);

} // namespace rematlens
