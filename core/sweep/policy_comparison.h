#pragma once

#include "hole_finder.h"

#include <optional>
#include <vector>

namespace rematlens {

// One policy's runs over a shared budget grid, in increasing budget order.
struct PolicyRuns {
    std::vector<BudgetOutcome> outcomes;
    std::vector<double> overheads; // clock / baseline compute, read only where the run passed
};

// The budget where a policy's overhead is highest relative to the reference policy's.
struct OverheadRegression {
    std::size_t column = 0;
    double ratio = 0; // this policy's overhead / the reference's
};

struct PolicyComparisonRow {
    HoleReport holes; // first success, stable-from, failures above the first success
    // Over the budgets where every policy passes (absent when there are none):
    std::optional<double> meanOverhead;
    std::optional<double> geomeanRatio;         // geometric mean of overhead / reference overhead
    std::optional<OverheadRegression> worst;    // the highest such ratio
};

struct PolicyComparison {
    std::vector<std::size_t> commonPasses; // budgets where every policy passes
    std::vector<PolicyComparisonRow> rows; // one per policy; the first is the reference
};

// Compares policies run over the same grid; the first policy is the reference.
PolicyComparison comparePolicies(const std::vector<PolicyRuns> &runs);

} // namespace rematlens
