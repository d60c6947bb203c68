#include "run_config.h"

#include "score_expression.h"

namespace rematlens {

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
    return {};
}

} // namespace rematlens
