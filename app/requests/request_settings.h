#pragma once

#include "core/sim/policy.h"
#include "core/sim/runtime_kind.h"
#include "core/trace/program.h"

#include <optional>
#include <string>
#include <vector>

namespace rematlens {

// What the settings every request shares become, from the text a face was given: policies by
// name, alias, parametrized name or score expression (see parsePolicySpec), the runtime, the
// overhead limit and the tensors kept resident. Each gives an error message for the first bad
// one (a caret under a bad expression's fault).
std::optional<std::vector<Policy>> resolvePolicies(const std::vector<std::string> &names, std::string &error);
std::optional<RuntimeKind> resolveRuntime(const std::string &name, std::string &error);
std::optional<double> resolveOverheadLimit(const std::string &text, std::string &error);
// Tensors named by --keep (as the trace spells them), in order and without repeats.
std::optional<std::vector<TensorId>> resolveKeep(const std::vector<std::string> &names, const Program &program,
                                                 std::string &error);

} // namespace rematlens
