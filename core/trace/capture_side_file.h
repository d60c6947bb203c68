#pragma once

#include "parse_error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace rematlens {

// What python/rematlens_capture writes beside a trace (X.log -> X.meta.json): how it was timed,
// every name's shape, and which names are weights, gradients, optimizer state and inputs.
struct CaptureSideFile {
    struct TensorShape {
        std::vector<std::int64_t> shape;
        std::string dtype;          // PyTorch's name: float32, int64, ...
    };

    std::string torchVersion;
    std::string timeMode;           // wall, flops or unit
    std::unordered_map<std::string, TensorShape> tensors;
    std::unordered_map<std::string, std::string> labels;   // parameter names such as "conv1.weight"
    std::vector<std::string> parameters;
    std::vector<std::string> buffers;
    std::vector<std::string> gradients;
    std::vector<std::string> optimizerState;
    std::vector<std::string> inputs;

    // "16×64×56×56 float32 (layer1.0.conv1.weight)", or empty for an unknown name.
    std::string describe(const std::string &name) const;
    // Bytes of a name's tensor from its shape and element type (0 for an unknown name).
    std::int64_t bytesOf(const std::string &name) const;
};

// Where the side file of a trace would be: the trace's path with .log replaced by .meta.json
// (or .meta.json appended when it does not end in .log).
std::string captureSideFilePath(const std::string &tracePath);

struct CaptureSideFileResult {
    std::optional<CaptureSideFile> sideFile;
    ParseError error;               // set when the file exists but cannot be used
};

// Reads the side file at path; an absent file is no error (sideFile empty, error.message empty).
CaptureSideFileResult readCaptureSideFile(const std::string &path);

} // namespace rematlens
