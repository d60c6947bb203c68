#pragma once

#include "core/sim/baseline.h"
#include "core/sim/policy.h"
#include "core/sim/runtime_kind.h"
#include "core/trace/capture_side_file.h"
#include "core/trace/program.h"
#include "core/trace/trace_completeness.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rematlens {

class MpiWorld;

// Exit statuses of the command-line contract.
enum ExitStatus { ExitOk = 0, ExitBadInput = 1, ExitBadUsage = 2, ExitInterrupted = 130 };

// Prints "rematlens: error: message" to stderr and returns status.
int reportError(int status, const std::string &message);

// A usage problem every MPI rank finds alike: rank 0 alone reports it; every rank gets the status.
int usageError(const MpiWorld &world, const std::string &problem);

struct LoadedTrace {
    std::shared_ptr<const Program> program;
    Baseline baseline;
    std::string name; // as shown in records
    std::optional<CaptureSideFile> sideFile;    // the capture's side file beside the trace
    std::string sideFileProblem;                // a side file there that cannot be used: why
    TraceCompleteness completeness;
};

// Reads the trace (or :demo), its side file and its baseline; reports a read error and returns
// nothing. A trace that ends early gets a one-line warning, or under --strict (see
// setStrictTraces) an error and nothing.
std::optional<LoadedTrace> loadWithBaseline(const std::string &trace);

// --strict of the commands that read traces: a trace that ends early is an error, not a warning.
void setStrictTraces(bool strict);

// Policies by name, alias, parametrized name or score expression (see parsePolicySpec); an
// error message for the first bad one, with a caret under a bad expression's fault.
std::optional<std::vector<Policy>> resolvePolicies(const std::vector<std::string> &names, std::string &error);
std::optional<RuntimeKind> resolveRuntime(const std::string &name, std::string &error);
std::optional<double> resolveOverheadLimit(const std::string &text, std::string &error);

// Tensors named by --keep (as the trace spells them), in order and without repeats; an error
// naming the first tensor the trace does not have.
std::optional<std::vector<TensorId>> resolveKeep(const std::vector<std::string> &names, const Program &program,
                                                 std::string &error);

} // namespace rematlens
