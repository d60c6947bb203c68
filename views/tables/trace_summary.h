#pragma once

#include "core/sim/baseline.h"
#include "core/trace/capture_side_file.h"
#include "core/trace/memory_split.h"
#include "core/trace/program_stats.h"

#include <QString>

#include <memory>
#include <optional>

namespace rematlens {

// What the summary panel shows about one trace: immutable values computed by the core.
struct TraceSummary {
    QString name;
    Baseline baseline;
    ProgramStats stats;
    // From the capture's side file beside the trace (python/rematlens_capture), when there is one.
    std::shared_ptr<const CaptureSideFile> sideFile;
    std::optional<MemorySplit> memorySplit;
    QString sideFileProblem;    // a side file that could not be read: why
    QString incomplete;         // why the trace looks truncated (see assessCompleteness); empty when complete
};

} // namespace rematlens
