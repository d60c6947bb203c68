#pragma once

#include "../trace/program.h"

#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace rematlens {

enum class AllocatorKind { Sum, Caching, BestFit };
// OnFailure: the budget is the device capacity; a failed allocation releases the cache, then
// evicts and retries. AfterOp (DTR's prototype): the budget limits allocated bytes after each
// operator; the capacity is the device and a failed allocation fails the run.
enum class EvictionCoupling { OnFailure, AfterOp };

inline constexpr Bytes kUnlimitedCapacity = std::numeric_limits<Bytes>::max() / 4;

// PyTorch's caching allocator options (all off by default, as in PyTorch).
struct CachingOptions {
    std::optional<Bytes> maxSplitSize;   // max_split_size_mb, in bytes
    int roundupPower2Divisions = 0;      // one value for every size interval; 0 and 1 are off
    bool expandableSegments = false;

    bool operator==(const CachingOptions &) const = default;
};

struct AllocatorConfig {
    AllocatorKind kind = AllocatorKind::Sum;
    EvictionCoupling eviction = EvictionCoupling::OnFailure;
    Bytes capacity = kUnlimitedCapacity; // the device under AfterOp; OnFailure uses the budget
    CachingOptions caching;
    // Check the allocator's layout after every this many operators (0: never); tests use it.
    std::size_t validateEvery = 0;

    bool isSum() const { return kind == AllocatorKind::Sum; }
    bool operator==(const AllocatorConfig &) const = default;
};

std::string_view allocatorKindName(AllocatorKind kind);
std::optional<AllocatorKind> findAllocatorKind(std::string_view name);
std::string_view evictionCouplingName(EvictionCoupling coupling);
std::optional<EvictionCoupling> findEvictionCoupling(std::string_view name);

// Applies one KEY=VALUE option of the caching allocator; an error message naming the option and
// what was expected otherwise.
std::string applyCachingOption(std::string_view keyValue, CachingOptions &options);

// The configuration as one word, stable across versions: "sum", "caching", "best-fit", with
// ",after-op", ",capacity=N" and the options when they differ from the defaults. Keys of caches
// and sessions include it so results of different models never mix.
std::string allocatorKey(const AllocatorConfig &config);
// The configuration allocatorKey wrote, or nothing when the text is not such a key.
std::optional<AllocatorConfig> parseAllocatorKey(std::string_view key);

} // namespace rematlens
