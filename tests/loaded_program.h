#pragma once

// A trace file read and its baseline, for the suites that replay the core directly.
#include "core/sim/baseline.h"
#include "core/trace/trace_reader.h"

#include <QString>

#include <memory>

struct LoadedProgram {
    std::shared_ptr<const rematlens::Program> program; // null when the file cannot be read
    rematlens::Baseline baseline;
};

inline LoadedProgram loadProgram(const QString &path)
{
    rematlens::TraceReadResult read = rematlens::readTraceFile(path.toStdString());
    if (!read.ok())
        return {};
    return {read.program, rematlens::computeBaseline(*read.program)};
}
