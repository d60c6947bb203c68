#include "shared_intervals.h"

namespace rematlens {

SharedIntervals::SharedIntervals(const std::vector<RunRequest> &requests) : m_groupOf(requests.size(), kNone)
{
    for (std::size_t i = 0; i < requests.size(); ++i) {
        const RunConfig &config = requests[i].config;
        if (!shareable(config))
            continue;
        if (i > 0 && m_groupOf[i - 1] != kNone && sameButBudget(requests[i - 1].config, config)) {
            m_groupOf[i] = m_groupOf[i - 1];
            continue;
        }
        m_groupOf[i] = static_cast<std::uint32_t>(m_byLo.size());
        m_byLo.emplace_back();
    }
}

// A budget-reading score, a recorder or an allocator model makes a replay stand for its own
// budget only.
bool SharedIntervals::shareable(const RunConfig &config)
{
    return !config.policy.readsBudget() && config.recording == nullptr && config.allocator.isSum();
}

bool SharedIntervals::sameButBudget(const RunConfig &a, const RunConfig &b)
{
    return a.runtime == b.runtime && a.policy.name == b.policy.name && a.policy.expression == b.policy.expression
           && a.policy.penalty == b.policy.penalty && a.rematLimit == b.rematLimit && a.seed == b.seed
           && a.keepResident == b.keepResident && a.measureBottleneck == b.measureBottleneck
           && a.deferRegionRebuilds == b.deferRegionRebuilds && a.allocator == b.allocator;
}

std::optional<RunResult> SharedIntervals::find(std::size_t i, Bytes budget) const
{
    if (m_groupOf[i] == kNone)
        return std::nullopt;
    const std::lock_guard<std::mutex> lock(m_mutex);
    const std::map<Bytes, RunResult> &byLo = m_byLo[m_groupOf[i]];
    auto next = byLo.upper_bound(budget);
    if (next == byLo.begin())
        return std::nullopt;
    RunResult result = std::prev(next)->second;
    if (!result.interval.contains(budget))
        return std::nullopt;
    if (result.failure)
        result.failure->restateAt(budget);
    result.seconds = 0; // nothing was replayed
    return result;
}

void SharedIntervals::add(std::size_t i, const RunResult &result)
{
    if (m_groupOf[i] == kNone || !isResolved(result.outcome))
        return;
    const std::lock_guard<std::mutex> lock(m_mutex);
    m_byLo[m_groupOf[i]].emplace(result.interval.lo, result);
}

} // namespace rematlens
