#include "allocator_options.h"

namespace rematlens {

std::string resolveAllocator(const AllocatorOptions &options, AllocatorConfig &config)
{
    const std::optional<AllocatorKind> kind = findAllocatorKind(options.allocator);
    if (!kind)
        return "--allocator: expected sum, caching or best-fit, not \"" + options.allocator + "\"";
    config = AllocatorConfig{};
    config.kind = *kind;
    if (!options.eviction.empty()) {
        const std::optional<EvictionCoupling> eviction = findEvictionCoupling(options.eviction);
        if (!eviction)
            return "--eviction: expected on-failure or after-op, not \"" + options.eviction + "\"";
        if (config.isSum())
            return "--eviction: applies to --allocator caching or best-fit (the sum evicts before each "
                   "operator, as simrd does)";
        config.eviction = *eviction;
    }
    if (options.capacity) {
        if (config.eviction != EvictionCoupling::AfterOp)
            return "--capacity: applies with --eviction after-op (under on-failure the budget is the capacity)";
        if (*options.capacity <= 0 || *options.capacity >= kUnlimitedCapacity)
            return "--capacity: expected a positive number of bytes below 2^61, not " + std::to_string(*options.capacity);
        config.capacity = *options.capacity;
    }
    for (const std::string &option : options.options) {
        if (config.kind != AllocatorKind::Caching)
            return "--alloc-option: applies to --allocator caching only";
        if (std::string problem = applyCachingOption(option, config.caching); !problem.empty())
            return problem;
    }
    return {};
}

} // namespace rematlens
