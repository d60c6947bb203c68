#include "policy_comparison.h"

#include <cmath>

namespace rematlens {

namespace {

std::vector<std::size_t> budgetsAllPass(const std::vector<PolicyRuns> &runs)
{
    std::vector<std::size_t> common;
    const std::size_t columns = runs.empty() ? 0 : runs.front().outcomes.size();
    for (std::size_t c = 0; c < columns; ++c) {
        bool all = true;
        for (const PolicyRuns &r : runs)
            all = all && c < r.outcomes.size() && r.outcomes[c].outcome == Outcome::Pass;
        if (all)
            common.push_back(c);
    }
    return common;
}

} // namespace

PolicyComparison comparePolicies(const std::vector<PolicyRuns> &runs)
{
    PolicyComparison comparison;
    comparison.commonPasses = budgetsAllPass(runs);
    for (const PolicyRuns &r : runs) {
        PolicyComparisonRow row;
        row.holes = findHoles(r.outcomes);
        if (!comparison.commonPasses.empty()) {
            const PolicyRuns &reference = runs.front();
            double sum = 0;
            double logSum = 0; // a sum of logs: a product of ratios could overflow
            for (std::size_t c : comparison.commonPasses) {
                const double ratio = r.overheads[c] / reference.overheads[c];
                sum += r.overheads[c];
                logSum += std::log(ratio);
                if (!row.worst || ratio > row.worst->ratio)
                    row.worst = OverheadRegression{c, ratio};
            }
            const auto n = static_cast<double>(comparison.commonPasses.size());
            row.meanOverhead = sum / n;
            row.geomeanRatio = std::exp(logSum / n);
        }
        comparison.rows.push_back(std::move(row));
    }
    return comparison;
}

} // namespace rematlens
