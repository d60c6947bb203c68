#include "app/formats/capture_info.h"
#include "app/requests/loaded_trace.h"

#include "app/reports/run_report.h"

#include "core/trace/memory_split.h"

#include <sstream>

namespace rematlens {

namespace {

struct SplitPart {
    const char *key;        // JSON
    const char *label;      // text, as the window's rows name them
    Bytes bytes;
};

std::vector<SplitPart> partsOf(const MemorySplit &split)
{
    return {{"weights", "weights", split.weights},
            {"gradients", "gradients", split.gradients},
            {"optimizer_state", "optimizer state", split.optimizerState},
            {"inputs", "inputs", split.inputs},
            {"activations", "activations", split.activations}};
}

double percentOf(Bytes bytes, const MemorySplit &split)
{
    return split.baseline > 0 ? 100.0 * static_cast<double>(bytes) / static_cast<double>(split.baseline) : 0.0;
}

std::string padded(const std::string &label)
{
    return "  " + label + std::string(label.size() < 20 ? 20 - label.size() : 1, ' ');
}

// The sentence of the window's "Resident floor" row.
std::string residentFloor(const MemorySplit &split)
{
    const std::string floor = "every budget below " + fixedDigits(split.residentRatio(), 2) + " fails whatever the policy";
    return split.residentRatio() >= 0.5
        ? "weights, gradients and optimizer state are most of the memory: " + floor + " (typical of small batches)"
        : floor;
}

} // namespace

void addCaptureInfo(nlohmann::ordered_json &info, const LoadedTrace &trace)
{
    info["complete"] = trace.completeness.complete();
    if (!trace.completeness.complete())
        info["incomplete"] = trace.completeness.problem;
    if (!trace.sideFileProblem.empty())
        info["side_file_problem"] = trace.sideFileProblem;
    if (!trace.sideFile)
        return;
    const MemorySplit split = splitMemory(*trace.sideFile, trace.baseline.memory);
    nlohmann::ordered_json parts;
    for (const SplitPart &part : partsOf(split))
        parts[part.key] = part.bytes;
    parts["resident_floor"] = split.residentRatio();
    info["captured_with"] = {{"torch", trace.sideFile->torchVersion}, {"time", trace.sideFile->timeMode}};
    info["memory_split"] = parts;
}

std::string captureInfoText(const LoadedTrace &trace)
{
    std::ostringstream out;
    if (!trace.sideFileProblem.empty())
        out << padded("side file") << "cannot be used: " << trace.sideFileProblem << "\n";
    if (trace.sideFile) {
        const MemorySplit split = splitMemory(*trace.sideFile, trace.baseline.memory);
        out << padded("captured with") << "PyTorch " << trace.sideFile->torchVersion << ", time: "
            << trace.sideFile->timeMode << "\n";
        for (const SplitPart &part : partsOf(split))
            out << padded(part.label) << groupDigits(part.bytes) << " B, " << fixedDigits(percentOf(part.bytes, split), 1)
                << " %\n";
        out << padded("resident floor") << residentFloor(split) << "\n";
    }
    if (!trace.completeness.complete())
        out << padded("warning") << trace.completeness.problem << "\n";
    return out.str();
}

} // namespace rematlens
