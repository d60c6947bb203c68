#pragma once

#include "capture_side_file.h"
#include "program.h"

namespace rematlens {

// The baseline peak of a captured trace split by what the memory holds. Weights, gradients and
// optimizer state stay resident to the end of the step, so no budget below their sum can pass.
struct MemorySplit {
    Bytes weights = 0;          // parameters and buffers
    Bytes gradients = 0;
    Bytes optimizerState = 0;
    Bytes inputs = 0;           // data and targets
    Bytes activations = 0;      // the rest of the baseline peak: activations and temporaries
    Bytes baseline = 0;

    Bytes resident() const { return weights + gradients + optimizerState; }
    // resident() as a fraction of the baseline: below this ratio every budget fails.
    double residentRatio() const { return baseline > 0 ? static_cast<double>(resident()) / static_cast<double>(baseline) : 0.0; }
};

MemorySplit splitMemory(const CaptureSideFile &side, Bytes baselineMemory);

} // namespace rematlens
