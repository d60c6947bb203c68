#pragma once

#include "../sim/run_request.h"
#include "../sim/run_result.h"

#include <map>
#include <mutex>
#include <optional>
#include <vector>

namespace rematlens {

// Results of a sweep's finished runs, by the interval of budgets each one stands for: a run at
// budget B replays decision for decision like every budget in its interval [lo, hi), so a later
// request of the same configuration whose budget lies inside takes that result instead of
// replaying (above a run's peak every budget is one interval). Only for configurations whose
// victims do not read the budget, without a recorder, under the byte sum (no allocator model),
// and for resolved results. Thread-safe.
class SharedIntervals {
public:
    // Groups the requests that differ in nothing but the budget (consecutive ones only, as
    // sweeps plan them).
    explicit SharedIntervals(const std::vector<RunRequest> &requests);

    // The result of request i taken from a finished run of its group, if one covers its budget.
    std::optional<RunResult> find(std::size_t i, Bytes budget) const;
    // Offers request i's result to the later requests of its group.
    void add(std::size_t i, const RunResult &result);

private:
    static bool shareable(const RunConfig &config);
    static bool sameButBudget(const RunConfig &a, const RunConfig &b);

    std::vector<std::uint32_t> m_groupOf; // per request; kNone: never shared
    std::vector<std::map<Bytes, RunResult>> m_byLo; // per group, keyed by interval.lo
    mutable std::mutex m_mutex;
};

} // namespace rematlens
