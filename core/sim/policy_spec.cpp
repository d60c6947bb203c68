#include "policy_spec.h"

#include "score_expression.h"

#include <charconv>
#include <cmath>

namespace rematlens {

namespace {

bool startsWithIgnoringCase(std::string_view text, std::string_view prefix)
{
    if (text.size() < prefix.size())
        return false;
    for (std::size_t i = 0; i < prefix.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(text[i])) != std::tolower(static_cast<unsigned char>(prefix[i])))
            return false;
    return true;
}

std::string shortest(double value)
{
    char buffer[32];
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    return ec == std::errc{} ? std::string(buffer, end) : std::to_string(value);
}

std::optional<Policy> expressionPolicy(std::string_view formula, PolicySpecError &error)
{
    const std::string text(formula);
    ExpressionError problem;
    const std::optional<ScoreExpression> compiled = ScoreExpression::compile(text, problem);
    if (!compiled) {
        error = {"invalid score expression: " + problem.message, text, problem.position};
        return std::nullopt;
    }
    Policy policy;
    policy.name = std::string(kExpressionPrefix) + text;
    policy.cost = CostTerm::Expression;
    policy.divideBySize = false;
    policy.divideByStaleness = false;
    policy.summary = "user score expression " + text;
    policy.expression = text;
    policy.expressionReadsNeighbourhood = compiled->readsNeighbourhood();
    policy.expressionReadsEqClasses = compiled->readsEqClasses();
    policy.expressionReadsShortfall = compiled->readsShortfall();
    return policy;
}

// "b=0.25" for DTRPenalty, the only built-in with a parameter.
std::optional<Policy> withParameters(Policy policy, std::string_view parameters, PolicySpecError &error)
{
    if (policy.cost != CostTerm::Penalized) {
        error.message = "policy " + policy.name + " takes no parameters, got \"" + std::string(parameters) + "\"";
        return std::nullopt;
    }
    const std::string expected = "DTRPenalty expects b=NUMBER (a finite b >= 0, e.g. DTRPenalty:b=0.5), got \""
                                 + std::string(parameters) + "\"";
    if (!startsWithIgnoringCase(parameters, "b=")) {
        error.message = expected;
        return std::nullopt;
    }
    const std::string_view number = parameters.substr(2);
    double b = 0;
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), b);
    if (number.empty() || ec != std::errc{} || end != number.data() + number.size() || !std::isfinite(b) || b < 0) {
        error.message = expected;
        return std::nullopt;
    }
    policy.penalty = b;
    policy.name += ":b=" + shortest(b);
    return policy;
}

} // namespace

std::string PolicySpecError::toString() const
{
    if (!expression)
        return message;
    return message + " at character " + std::to_string(position + 1) + ":\n    " + *expression + "\n    "
           + std::string(position, ' ') + "^";
}

std::optional<Policy> parsePolicySpec(std::string_view spec, PolicySpecError &error)
{
    if (startsWithIgnoringCase(spec, kExpressionPrefix))
        return expressionPolicy(spec.substr(kExpressionPrefix.size()), error);
    const std::size_t colon = spec.find(':');
    const std::string_view name = spec.substr(0, colon);
    std::optional<Policy> policy = findPolicy(name);
    if (!policy) {
        error.message = "unknown policy \"" + std::string(spec)
                        + "\" (rematlens policies lists them; a score expression starts with expr:)";
        return std::nullopt;
    }
    if (colon != std::string_view::npos)
        return withParameters(*policy, spec.substr(colon + 1), error);
    if (policy->cost == CostTerm::Penalized)
        policy->name += ":b=" + shortest(policy->penalty);
    return policy;
}

} // namespace rematlens
