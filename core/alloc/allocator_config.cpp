#include "allocator_config.h"

#include <charconv>

namespace rematlens {

namespace {

constexpr Bytes kMiB = Bytes{1} << 20;

std::optional<std::int64_t> parseInteger(std::string_view text)
{
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

std::optional<bool> parseBool(std::string_view text)
{
    if (text == "true" || text == "True" || text == "1")
        return true;
    if (text == "false" || text == "False" || text == "0")
        return false;
    return std::nullopt;
}

} // namespace

std::string_view allocatorKindName(AllocatorKind kind)
{
    switch (kind) {
    case AllocatorKind::Sum: return "sum";
    case AllocatorKind::Caching: return "caching";
    case AllocatorKind::BestFit: return "best-fit";
    }
    return "sum";
}

std::optional<AllocatorKind> findAllocatorKind(std::string_view name)
{
    for (AllocatorKind k : {AllocatorKind::Sum, AllocatorKind::Caching, AllocatorKind::BestFit})
        if (allocatorKindName(k) == name)
            return k;
    return std::nullopt;
}

std::string_view evictionCouplingName(EvictionCoupling coupling)
{
    return coupling == EvictionCoupling::OnFailure ? "on-failure" : "after-op";
}

std::optional<EvictionCoupling> findEvictionCoupling(std::string_view name)
{
    for (EvictionCoupling c : {EvictionCoupling::OnFailure, EvictionCoupling::AfterOp})
        if (evictionCouplingName(c) == name)
            return c;
    return std::nullopt;
}

std::string applyCachingOption(std::string_view keyValue, CachingOptions &options)
{
    const std::size_t equals = keyValue.find('=');
    if (equals == std::string_view::npos)
        return "--alloc-option " + std::string(keyValue) + ": expected KEY=VALUE";
    const std::string_view key = keyValue.substr(0, equals);
    const std::string_view value = keyValue.substr(equals + 1);
    const std::string prefix = "--alloc-option " + std::string(key) + ": ";
    if (key == "max_split_size_mb" || key == "max_split_size") {
        const std::optional<std::int64_t> mb = parseInteger(value);
        if (!mb || *mb < 20 || *mb > (std::int64_t{1} << 30))
            return prefix + "expected a whole number of MiB, at least 20 (as PyTorch requires), not \""
                   + std::string(value) + "\"";
        options.maxSplitSize = *mb * kMiB;
        return {};
    }
    if (key == "roundup_power2_divisions") {
        const std::optional<std::int64_t> d = parseInteger(value);
        if (!d || *d < 0 || *d > 1024 || (*d > 1 && (*d & (*d - 1)) != 0))
            return prefix + "expected 0, 1 or a power of two up to 1024, not \"" + std::string(value) + "\"";
        options.roundupPower2Divisions = static_cast<int>(*d);
        return {};
    }
    if (key == "expandable_segments") {
        const std::optional<bool> on = parseBool(value);
        if (!on)
            return prefix + "expected true or false, not \"" + std::string(value) + "\"";
        options.expandableSegments = *on;
        return {};
    }
    return "--alloc-option: unknown key \"" + std::string(key)
           + "\"; expected max_split_size_mb, roundup_power2_divisions or expandable_segments";
}

std::string allocatorKey(const AllocatorConfig &config)
{
    std::string key(allocatorKindName(config.kind));
    if (config.isSum())
        return key;
    if (config.eviction == EvictionCoupling::AfterOp) {
        key += ",after-op";
        if (config.capacity != kUnlimitedCapacity)
            key += ",capacity=" + std::to_string(config.capacity);
    }
    if (config.kind == AllocatorKind::Caching) {
        if (config.caching.maxSplitSize)
            key += ",max_split_size_mb=" + std::to_string(*config.caching.maxSplitSize / kMiB);
        if (config.caching.roundupPower2Divisions > 1)
            key += ",roundup_power2_divisions=" + std::to_string(config.caching.roundupPower2Divisions);
        if (config.caching.expandableSegments)
            key += ",expandable_segments=true";
    }
    return key;
}

std::optional<AllocatorConfig> parseAllocatorKey(std::string_view key)
{
    AllocatorConfig config;
    std::size_t start = 0;
    bool first = true;
    while (start <= key.size()) {
        const std::size_t comma = std::min(key.find(',', start), key.size());
        const std::string_view part = key.substr(start, comma - start);
        start = comma + 1;
        if (first) {
            const std::optional<AllocatorKind> kind = findAllocatorKind(part);
            if (!kind)
                return std::nullopt;
            config.kind = *kind;
            first = false;
        } else if (part == "after-op") {
            config.eviction = EvictionCoupling::AfterOp;
        } else if (part.starts_with("capacity=")) {
            const std::optional<std::int64_t> capacity = parseInteger(part.substr(9));
            if (!capacity || *capacity <= 0)
                return std::nullopt;
            config.capacity = *capacity;
        } else if (!applyCachingOption(part, config.caching).empty()) {
            return std::nullopt;
        }
    }
    if (allocatorKey(config) != key)
        return std::nullopt;
    return config;
}

} // namespace rematlens
