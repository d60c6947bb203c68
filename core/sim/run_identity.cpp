#include "run_identity.h"

#include <cstdio>

namespace rematlens {

namespace {

// Shortest text that reads back as the same double.
std::string exactDouble(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

} // namespace

std::string RowIdentity::key() const
{
    std::string key = policy;
    key += '|';
    key += runtimeName(runtime);
    key += '|';
    key += allocator;
    key += "|limit=" + exactDouble(overheadLimit);
    key += "|seed=" + std::to_string(seed);
    key += "|keep=";
    for (std::size_t i = 0; i < keep.size(); ++i)
        key += (i ? "," : "") + keep[i];
    return key;
}

std::string RunIdentity::key() const
{
    return row.key() + "|budget=" + std::to_string(budget);
}

// Kept tensors by the names the trace gives them; a request that kept tensors without naming
// them (a replay asked for in code) names them by id, so it never passes for one keeping none.
RowIdentity rowIdentityOf(const std::string &traceHash, const RunRequest &request)
{
    const RunConfig &c = request.config;
    std::vector<std::string> keep = request.keep;
    if (keep.size() != c.keepResident.size()) {
        keep.clear();
        for (TensorId t : c.keepResident)
            keep.push_back("#" + std::to_string(t));
    }
    return RowIdentity{traceHash, c.policy.name, c.runtime, allocatorKey(c.allocator), request.overheadLimit,
                       std::move(keep), c.seed};
}

RunIdentity runIdentityOf(const std::string &traceHash, const RunRequest &request)
{
    return RunIdentity{rowIdentityOf(traceHash, request), request.config.budget};
}

} // namespace rematlens
