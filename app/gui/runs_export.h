#pragma once

#include "app/formats/sweep_file.h"

#include <QString>

#include <string>
#include <vector>

namespace rematlens {

class SweepResultModel;

// File > Export Runs: the finished runs of the sweep the strip shows, as the file
// `rematlens sweep --out` writes (the same records through the same writer, JSON lines or CSV
// by the file's extension, in grid order); runs not finished or cancelled are left out.
class RunsExport {
public:
    // `trace` is the name records carry, as the command line spells it (file name, or ":demo").
    static std::vector<SweepFile::Record> records(const SweepResultModel &model, const std::string &trace);
    // Replaces the file at path with the records (a .jsonl or .csv name).
    static bool write(std::vector<SweepFile::Record> records, const QString &path, QString &error);
};

} // namespace rematlens
