#pragma once

#include <pybind11/pybind11.h>

#include <string>

namespace rematlens {

namespace py = pybind11;

// A map file (as `map --out` writes it, or gzip-compressed as the atlas keeps it) read straight
// into columns with simdjson, each map of it summarised as `map --json` would (holes, verdict,
// unmapped budgets): the reader for notebooks that load a large map, InceptionV4's 125,000
// intervals in a fraction of a second. Raises InputError naming the file and line it cannot read.
py::dict readMapFile(const std::string &path);

} // namespace rematlens
