#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rematlens {

// What a policy adds to a storage's own compute in the numerator of its score.
enum class CostTerm {
    EStar,        // compute of the evicted neighbourhood, kept incrementally (regions)
    EqClass,      // compute of the distinct equivalence classes of evicted neighbours
    Local,        // nothing: the storage's own compute
    FreshEStar,   // the evicted neighbourhood found by a fresh search (DTRUnopt)
    BackwardOnly, // the backward region only (MSPS)
    NoCost,       // the numerator is 1
    LastAccess,   // LRU: the score is the last access time itself
    Random,       // a uniformly random storage of the pool
    EStarCount,   // h_e*: the number of storages in e*, nothing else
    Penalized,    // h_DTR x (1 + b x storages in e*)
    ShortfallFirst, // storages covering the shortfall first, then own compute / staleness
    Expression,   // a user's score expression
};

// One of simrd's eviction heuristics, described by its score's factors.
struct Policy {
    std::string name;          // simrd's class name, as it appears in results
    std::vector<std::string> aliases;
    CostTerm cost = CostTerm::EStar;
    bool divideBySize = true;
    bool divideByStaleness = true;
    std::string summary;
    std::string source;        // where the score was published, for the policies listing
    double penalty = 0;        // Penalized: b
    std::string expression;    // Expression: the formula
    bool expressionReadsNeighbourhood = false;
    bool expressionReadsEqClasses = false;
    bool expressionReadsShortfall = false;

    bool needsRegions() const
    {
        return cost == CostTerm::EStar || cost == CostTerm::BackwardOnly || cost == CostTerm::EStarCount
               || cost == CostTerm::Penalized || (cost == CostTerm::Expression && expressionReadsNeighbourhood);
    }
    bool needsEqClasses() const
    {
        return cost == CostTerm::EqClass || (cost == CostTerm::Expression && expressionReadsEqClasses);
    }
    // Whether victims depend on the budget itself (through the bytes still lacking), so that a
    // replay no longer stands for a whole interval of budgets.
    bool readsBudget() const
    {
        return cost == CostTerm::ShortfallFirst || (cost == CostTerm::Expression && expressionReadsShortfall);
    }
    // simrd's banishing runtime keeps neither regions nor equivalence classes.
    bool runsOnBanishing() const { return !needsRegions() && !needsEqClasses(); }
};

// DTRPenalty's b when none is given.
inline constexpr double kDefaultPenalty = 0.5;

const std::vector<Policy> &allPolicies();

// Finds a policy by simrd name or alias, ignoring case.
std::optional<Policy> findPolicy(std::string_view name);

} // namespace rematlens
