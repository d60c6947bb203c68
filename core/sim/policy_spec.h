#pragma once

#include "policy.h"

#include <optional>
#include <string>
#include <string_view>

namespace rematlens {

// Why a policy spec was refused. When the fault is inside a score expression, `expression`
// holds it and `position` points at the offending character within it.
struct PolicySpecError {
    std::string message;
    std::optional<std::string> expression;
    std::size_t position = 0;

    // The message, then (for expressions) the expression with a caret under the fault.
    std::string toString() const;
};

// A policy as the user names it:
//   a built-in name or alias       DTR, h-dtr, ShortfallFirst, ...
//   a parametrized built-in        DTRPenalty:b=0.25
//   a score expression             expr:(compute + estar) / (size * staleness)
// Expressions are compiled here once to check them; each replay compiles its own.
std::optional<Policy> parsePolicySpec(std::string_view spec, PolicySpecError &error);

// The prefix that marks a score expression.
inline constexpr std::string_view kExpressionPrefix = "expr:";

} // namespace rematlens
