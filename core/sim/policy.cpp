#include "policy.h"

#include <algorithm>
#include <cctype>

namespace rematlens {

namespace {

bool equalsIgnoringCase(std::string_view a, std::string_view b)
{
    return a.size() == b.size()
           && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
                  return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
              });
}

Policy describe(std::string name, std::vector<std::string> aliases, CostTerm cost, bool bySize, bool byStaleness,
                std::string summary, std::string source = {})
{
    Policy policy;
    policy.name = std::move(name);
    policy.aliases = std::move(aliases);
    policy.cost = cost;
    policy.divideBySize = bySize;
    policy.divideByStaleness = byStaleness;
    policy.summary = std::move(summary);
    policy.source = std::move(source);
    return policy;
}

// simrd's heuristics (simrd/heuristic/*.py), then the published variants simrd lacks.
std::vector<Policy> makePolicies()
{
    using C = CostTerm;
    const std::string dtr = "simrd heuristic/dtr.py (Kirisame et al., Dynamic Tensor Rematerialization, ICLR 2021)";
    const std::string ablation = "simrd heuristic/ablation.py (the DTR paper's ablation study)";
    const std::string etc = "simrd heuristic/etc.py (baselines of the DTR paper)";
    std::vector<Policy> policies{
        describe("DTR", {"dtr", "h-dtr"}, C::EStar, true, true, "(cost + e*) / (size * staleness)", dtr),
        describe("DTREqClass", {"dtr-eq"}, C::EqClass, true, true, "(cost + equivalence classes) / (size * staleness)",
                 dtr),
        describe("DTRLocal", {"dtr-local"}, C::Local, true, true, "cost / (size * staleness)", dtr),
        describe("DTRUnopt", {"dtr-unopt"}, C::FreshEStar, true, true,
                 "(cost + freshly searched e*) / (size * staleness of the neighbourhood)", dtr),
        describe("MSPS", {"msps"}, C::BackwardOnly, true, false, "(cost + backward region) / size", etc),
        describe("LRU", {"lru"}, C::LastAccess, false, false, "least recently used", etc),
        describe("LargestStorage", {"size", "largest"}, C::NoCost, true, false, "1 / size", etc),
        describe("RandomStorage", {"random"}, C::Random, false, false, "uniformly random (seeded)", etc),
        describe("AbESizeStale", {}, C::EStar, true, true, "e*, size, staleness (= DTR)", ablation),
        describe("AbESize", {}, C::EStar, true, false, "e*, size, no staleness", ablation),
        describe("AbEStale", {}, C::EStar, false, true, "e*, no size, staleness", ablation),
        describe("AbE", {}, C::EStar, false, false, "e*, no size, no staleness", ablation),
        describe("AbEqSizeStale", {}, C::EqClass, true, true, "eq-class, size, staleness (= DTREqClass)", ablation),
        describe("AbEqSize", {}, C::EqClass, true, false, "eq-class, size, no staleness", ablation),
        describe("AbEqStale", {}, C::EqClass, false, true, "eq-class, no size, staleness", ablation),
        describe("AbEq", {}, C::EqClass, false, false, "eq-class, no size, no staleness", ablation),
        describe("AbLocalSizeStale", {}, C::Local, true, true, "local, size, staleness (= DTRLocal)", ablation),
        describe("AbLocalSize", {}, C::Local, true, false, "local, size, no staleness", ablation),
        // The Coop-inspired cost over staleness (compute / staleness, no size) is exactly this
        // ablation, so it is an alias rather than a second policy.
        describe("AbLocalStale", {"CostOverStaleness", "cost-over-staleness"}, C::Local, false, true,
                 "local, no size, staleness; also cost over staleness, the Coop-inspired score without size",
                 ablation + "; the size-free score Coop argues for (Zhang et al., Coop: Memory is not a "
                            "Commodity, NeurIPS 2023)"),
        describe("AbLocal", {}, C::Local, false, false, "local, no size, no staleness", ablation),
        describe("AbSizeStale", {}, C::NoCost, true, true, "no cost, size, staleness", ablation),
        describe("AbSize", {}, C::NoCost, true, false, "no cost, size, no staleness (= LargestStorage)", ablation),
        describe("AbStale", {}, C::NoCost, false, true, "no cost, no size, staleness", ablation),
        describe("AbRandom", {}, C::Random, false, false, "no cost, no size, no staleness (random)", ablation),
        // h_e*: simrd's AbE ranks by the compute of e*; this ranks by how many storages e* holds.
        describe("EStarCount", {"h-estar", "h_e*"}, C::EStarCount, false, false,
                 "storages in e*: evict the storage whose evicted neighbourhood is smallest",
                 "h_e*, minimal e* size, over the evicted neighbourhood e* of the DTR paper (Kirisame et al., "
                 "ICLR 2021); not in simrd, whose AbE ranks by e*'s compute instead"),
        describe("DTRPenalty", {"dtr-penalty"}, C::Penalized, true, true,
                 "h_DTR x (1 + b x storages in e*); DTRPenalty:b=0.5 is the default",
                 "h_DTR (Kirisame et al., ICLR 2021) times a neighbourhood penalty: evicting next to a large e* "
                 "makes rematerializations chain"),
        describe("ShortfallFirst", {"two-phase"}, C::ShortfallFirst, false, true,
                 "two phases: storages at least as large as the shortfall (if any), ranked by cost / staleness",
                 "Coop-inspired (Zhang et al., NeurIPS 2023: free what fits the allocation at once), ranked by "
                 "cost over staleness"),
    };
    policies[policies.size() - 2].penalty = kDefaultPenalty;
    return policies;
}

} // namespace

const std::vector<Policy> &allPolicies()
{
    static const std::vector<Policy> policies = makePolicies();
    return policies;
}

std::optional<Policy> findPolicy(std::string_view name)
{
    for (const Policy &policy : allPolicies()) {
        if (equalsIgnoringCase(policy.name, name))
            return policy;
        for (const std::string &alias : policy.aliases)
            if (equalsIgnoringCase(alias, name))
                return policy;
    }
    return std::nullopt;
}

} // namespace rematlens
