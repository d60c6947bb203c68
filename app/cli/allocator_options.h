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

    bool isSum() const { return allocator == "sum"; }
};

// The configuration the options ask for, or an error naming the option and what was expected.
std::string resolveAllocator(const AllocatorOptions &options, AllocatorConfig &config);

} // namespace rematlens
