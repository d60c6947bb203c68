#include "app/requests/request_settings.h"

#include "core/sim/policy_spec.h"
#include "core/sweep/decimal_grid.h"

#include <algorithm>
#include <unordered_map>

namespace rematlens {

std::optional<std::vector<Policy>> resolvePolicies(const std::vector<std::string> &names, std::string &error)
{
    std::vector<Policy> policies;
    for (const std::string &name : names) {
        PolicySpecError problem;
        std::optional<Policy> policy = parsePolicySpec(name, problem);
        if (!policy) {
            error = problem.toString();
            return std::nullopt;
        }
        policies.push_back(*policy);
    }
    return policies;
}

std::optional<RuntimeKind> resolveRuntime(const std::string &name, std::string &error)
{
    std::optional<RuntimeKind> runtime = findRuntime(name);
    if (!runtime)
        error = "unknown runtime \"" + name + "\" (expected eager, lazy or banishing)";
    return runtime;
}

std::optional<double> resolveOverheadLimit(const std::string &text, std::string &error)
{
    std::optional<double> limit = DecimalGrid::parseRatio(text);
    if (!limit || *limit < 1.0) {
        error = "--overhead-limit expects a number of at least 1, got \"" + text + "\"";
        return std::nullopt;
    }
    return limit;
}

std::optional<std::vector<TensorId>> resolveKeep(const std::vector<std::string> &names, const Program &program,
                                                 std::string &error)
{
    std::vector<TensorId> ids;
    if (names.empty())
        return ids;
    std::unordered_map<std::string_view, TensorId> byName;
    for (TensorId t = 0; t < program.tensors.size(); ++t)
        byName.emplace(program.tensors[t].name, t);
    for (const std::string &name : names) {
        const auto found = byName.find(name);
        if (found == byName.end()) {
            error = "--keep: the trace has no tensor named \"" + name + "\"";
            return std::nullopt;
        }
        if (std::find(ids.begin(), ids.end(), found->second) == ids.end())
            ids.push_back(found->second);
    }
    return ids;
}

} // namespace rematlens
