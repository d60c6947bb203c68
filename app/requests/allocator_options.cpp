#include "app/requests/allocator_options.h"

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

namespace {

// The shared options, kept only where they apply to this model.
AllocatorOptions optionsForModel(const AllocatorOptions &options, const std::string &model)
{
    AllocatorOptions one = options;
    one.allocator = model;
    one.models.clear();
    if (model == "sum")
        one.eviction.clear();
    if (model != "caching")
        one.options.clear();
    if (one.eviction != "after-op")
        one.capacity.reset();
    return one;
}

} // namespace

std::string resolveAllocatorRows(const AllocatorOptions &options, std::vector<AllocatorConfig> &configs)
{
    configs.clear();
    if (options.models.size() <= 1) {
        AllocatorOptions one = options;
        if (!options.models.empty())
            one.allocator = options.models.front();
        AllocatorConfig config;
        if (std::string problem = resolveAllocator(one, config); !problem.empty())
            return problem;
        configs.push_back(config);
        return {};
    }
    for (const std::string &model : options.models) {
        AllocatorConfig config;
        if (std::string problem = resolveAllocator(optionsForModel(options, model), config); !problem.empty())
            return problem;
        for (const AllocatorConfig &known : configs)
            if (known.kind == config.kind)
                return "--allocator: \"" + model + "\" is named twice";
        configs.push_back(config);
    }
    return {};
}

} // namespace rematlens
