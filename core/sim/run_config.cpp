#include "run_config.h"

#include "score_expression.h"

namespace rematlens {

namespace {

std::string allocatorProblem(const AllocatorConfig &allocator)
{
    if (allocator.isSum() && allocator.eviction != EvictionCoupling::OnFailure)
        return "--eviction applies to the caching and best-fit allocators; the sum allocator evicts before "
               "each operator, as simrd does";
    if (allocator.eviction == EvictionCoupling::OnFailure && allocator.capacity != kUnlimitedCapacity)
        return "--capacity applies with --eviction after-op; under on-failure the budget is the capacity";
    if (allocator.capacity <= 0)
        return "--capacity must be a positive number of bytes";
    if (allocator.kind != AllocatorKind::Caching && allocator.caching != CachingOptions{})
        return "--alloc-option applies to the caching allocator only";
    return {};
}

} // namespace

std::string configProblem(const RunConfig &config)
{
    if (config.runtime == RuntimeKind::Banishing && !config.policy.runsOnBanishing())
        return "policy " + config.policy.name
               + " needs evicted-neighbourhood bookkeeping that the banishing runtime does not keep "
                 "(simrd refuses this combination); use DTRUnopt, DTRLocal, LRU, LargestStorage or a random policy";
    if (config.policy.cost == CostTerm::Expression) {
        ExpressionError error;
        const std::optional<ScoreExpression> expression = ScoreExpression::compile(config.policy.expression, error);
        if (!expression)
            return "invalid score expression \"" + config.policy.expression + "\": " + error.message;
        if (expression->readsNeighbourhood() != config.policy.expressionReadsNeighbourhood
            || expression->readsEqClasses() != config.policy.expressionReadsEqClasses
            || expression->readsShortfall() != config.policy.expressionReadsShortfall)
            return "the policy's expression flags disagree with its expression (build it with parsePolicySpec)";
    }
    if (config.budget < 0)
        return "the budget must not be negative";
    if (std::string problem = allocatorProblem(config.allocator); !problem.empty())
        return problem;
    return {};
}

} // namespace rematlens
