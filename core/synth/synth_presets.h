#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rematlens {

struct SynthPreset {
    std::string name;
    std::string description;
    int defaultLayers;
    int defaultBatch;
};

struct SynthOptions {
    std::string preset;
    std::optional<int> layers;
    std::optional<int> batch;
    std::uint64_t seed = 0;
};

const std::vector<SynthPreset> &synthPresets();

// A training step of the preset's model (forward, loss, backward) as a simrd trace, or nothing
// with `error` set when the options are out of range.
std::optional<std::string> synthesizeTrace(const SynthOptions &options, std::string &error);

} // namespace rematlens
