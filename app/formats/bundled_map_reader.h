#pragma once

#include "app/formats/bundled_map.h"

#include <optional>
#include <string>

namespace rematlens {

// Reads the bundled maps (gzip-compressed `map --out` files). Every error names the file and
// the line; a file that fails is read no further and nothing of it is used.
class BundledMapReader {
public:
    // Only the provenance line: which trace the map is of (a cheap look before reading it all).
    static std::optional<std::string> traceSha256Of(const std::string &path, std::string &error);
    static std::optional<BundledMap> read(const std::string &path, std::string &error);
};

} // namespace rematlens
