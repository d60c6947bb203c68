#pragma once

#include "app/formats/bundled_map.h"

#include <optional>
#include <string>
#include <vector>

namespace rematlens {

// Reads the bundled maps (gzip-compressed `map --out` files). Every error names the file and
// the line; a file that fails is read no further and nothing of it is used.
class BundledMapReader {
public:
    // Only the provenance line: which trace the map is of (a cheap look before reading it all).
    static std::optional<std::string> traceSha256Of(const std::string &path, std::string &error);
    static std::optional<BundledMap> read(const std::string &path, std::string &error);

    // One file's map, or the error that stopped it.
    struct Read {
        std::optional<BundledMap> map;
        std::string error;
    };
    // The files read side by side (a trace's atlas holds several large maps), in their order.
    static std::vector<Read> readAll(const std::vector<std::string> &paths);
};

} // namespace rematlens
