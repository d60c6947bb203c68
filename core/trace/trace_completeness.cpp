#include "trace_completeness.h"

#include <algorithm>
#include <unordered_set>

namespace rematlens {

namespace {

// "x12, x13 and 5 more": a few names, so the warning stays one line.
std::string someNames(const std::vector<std::string> &names)
{
    constexpr std::size_t kShown = 3;
    std::string text;
    for (std::size_t i = 0; i < names.size() && i < kShown; ++i)
        text += (i ? ", " : "") + names[i];
    if (names.size() > kShown)
        text += " and " + std::to_string(names.size() - kShown) + " more";
    return text;
}

std::string plural(std::size_t count, const char *one, const char *many)
{
    return std::to_string(count) + ' ' + (count == 1 ? one : many);
}

bool hasBackwardPass(const Program &program)
{
    return std::any_of(program.ops.begin(), program.ops.end(), [](const OpInfo &op) { return op.isBackward; });
}

bool hasComputation(const Program &program)
{
    return std::any_of(program.ops.begin(), program.ops.end(), [](const OpInfo &op) { return !op.isConstant; });
}

std::string sideFileNamesOthers(const Program &program, const CaptureSideFile &side)
{
    const std::unordered_set<std::string> inTrace(program.names.begin(), program.names.end());
    std::vector<std::string> missing;
    for (const auto &[name, shape] : side.tensors)
        if (!inTrace.count(name))
            missing.push_back(name);
    if (missing.empty())
        return {};
    // x9 before x10: shorter names first, as a capture numbers them
    std::sort(missing.begin(), missing.end(), [](const std::string &a, const std::string &b) {
        return a.size() != b.size() ? a.size() < b.size() : a < b;
    });
    return "its side file names " + plural(missing.size(), "tensor", "tensors") + " the trace does not have ("
        + someNames(missing) + "): the trace stops before them, or the side file is another capture's";
}

std::string namesNeverReleased(const Program &program, const CaptureSideFile &side)
{
    std::unordered_set<std::string> kept;
    for (const auto *role : {&side.parameters, &side.buffers, &side.gradients, &side.optimizerState})
        kept.insert(role->begin(), role->end());
    std::vector<std::string> held;
    for (const std::string &name : program.unreleasedNames)
        if (!kept.count(name))
            held.push_back(name);
    if (held.empty())
        return {};
    return plural(held.size(), "name is", "names are") + " never released (" + someNames(held)
        + ") although a complete captured step releases every name but the weights, buffers, gradients and "
          "optimizer state";
}

} // namespace

TraceCompleteness assessCompleteness(const Program &program, const CaptureSideFile *sideFile)
{
    TraceCompleteness result;
    if (sideFile) {
        result.problem = sideFileNamesOthers(program, *sideFile);
        if (result.problem.empty())
            result.problem = namesNeverReleased(program, *sideFile);
    }
    if (result.problem.empty() && hasComputation(program) && !hasBackwardPass(program))
        result.problem = "it has no backward pass (no BACKWARD annotation and no operator named *backward*)";
    if (!result.problem.empty())
        result.problem = "the trace ends early: " + result.problem;
    return result;
}

} // namespace rematlens
