#pragma once

#include "core/alloc/allocator_config.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rematlens {

// --allocator, --eviction, --capacity and --alloc-option as typed, shared by every command that
// replays.
struct AllocatorOptions {
    std::string allocator = "sum";
    std::string eviction;                 // empty: on-failure
    std::optional<std::int64_t> capacity; // bytes; only with --eviction after-op
    std::vector<std::string> options;     // KEY=VALUE of the caching allocator
    // Where one run per model is asked for (strip rows): every --allocator given, in order;
    // `allocator` is the first of them.
    std::vector<std::string> models;

    bool isSum() const { return allocator == "sum"; }
};

// The configuration the options ask for, or an error naming the option and what was expected.
std::string resolveAllocator(const AllocatorOptions &options, AllocatorConfig &config);

// One configuration per model named (one for `allocator` when `models` is empty), sharing the
// eviction, capacity and options: each applies to the models it fits. A single model is resolved
// exactly as resolveAllocator does, with its errors; a model named twice is an error.
std::string resolveAllocatorRows(const AllocatorOptions &options, std::vector<AllocatorConfig> &configs);

} // namespace rematlens
