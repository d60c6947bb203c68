#pragma once

#include "run_request.h"

#include <compare>
#include <cstdint>
#include <string>
#include <vector>

namespace rematlens {

// Everything that makes one configuration's replays differ, the budget aside: one strip row,
// one exact map, one hole list. Two requests with equal row identities and budgets replay alike,
// so every cache, row, map and view result of the window is keyed by these and nothing less.
struct RowIdentity {
    std::string traceHash;            // SHA-256 of the trace's content
    std::string policy;               // the policy as named (parameters and expressions included)
    RuntimeKind runtime = RuntimeKind::Eager;
    std::string allocator;            // allocatorKey(): model, eviction coupling, capacity, options
    double overheadLimit = 2.0;
    std::vector<std::string> keep;    // tensors kept resident, as the trace spells them
    std::uint64_t seed = 0;

    auto operator<=>(const RowIdentity &) const = default;
    bool operator==(const RowIdentity &) const = default;

    // One line naming every field, stable across versions (caches on disk are keyed by it).
    // The trace hash is left out: caches are kept per trace already.
    std::string key() const;
};

// One run: a row's configuration at one budget.
struct RunIdentity {
    RowIdentity row;
    Bytes budget = 0;

    auto operator<=>(const RunIdentity &) const = default;
    bool operator==(const RunIdentity &) const = default;

    std::string key() const;
};

RowIdentity rowIdentityOf(const std::string &traceHash, const RunRequest &request);
RunIdentity runIdentityOf(const std::string &traceHash, const RunRequest &request);

} // namespace rematlens
