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

std::vector<Policy> makePolicies()
{
    using C = CostTerm;
    return {
        {"DTR", {"dtr", "h-dtr"}, C::EStar, true, true, "(cost + e*) / (size * staleness)"},
        {"DTREqClass", {"dtr-eq"}, C::EqClass, true, true, "(cost + equivalence classes) / (size * staleness)"},
        {"DTRLocal", {"dtr-local"}, C::Local, true, true, "cost / (size * staleness)"},
        {"DTRUnopt", {"dtr-unopt"}, C::FreshEStar, true, true,
         "(cost + freshly searched e*) / (size * staleness of the neighbourhood)"},
        {"MSPS", {"msps"}, C::BackwardOnly, true, false, "(cost + backward region) / size"},
        {"LRU", {"lru"}, C::LastAccess, false, false, "least recently used"},
        {"LargestStorage", {"size", "largest"}, C::NoCost, true, false, "1 / size"},
        {"RandomStorage", {"random"}, C::Random, false, false, "uniformly random (seeded)"},
        {"AbESizeStale", {}, C::EStar, true, true, "e*, size, staleness (= DTR)"},
        {"AbESize", {}, C::EStar, true, false, "e*, size, no staleness"},
        {"AbEStale", {}, C::EStar, false, true, "e*, no size, staleness"},
        {"AbE", {}, C::EStar, false, false, "e*, no size, no staleness"},
        {"AbEqSizeStale", {}, C::EqClass, true, true, "eq-class, size, staleness (= DTREqClass)"},
        {"AbEqSize", {}, C::EqClass, true, false, "eq-class, size, no staleness"},
        {"AbEqStale", {}, C::EqClass, false, true, "eq-class, no size, staleness"},
        {"AbEq", {}, C::EqClass, false, false, "eq-class, no size, no staleness"},
        {"AbLocalSizeStale", {}, C::Local, true, true, "local, size, staleness (= DTRLocal)"},
        {"AbLocalSize", {}, C::Local, true, false, "local, size, no staleness"},
        {"AbLocalStale", {}, C::Local, false, true, "local, no size, staleness"},
        {"AbLocal", {}, C::Local, false, false, "local, no size, no staleness"},
        {"AbSizeStale", {}, C::NoCost, true, true, "no cost, size, staleness"},
        {"AbSize", {}, C::NoCost, true, false, "no cost, size, no staleness (= LargestStorage)"},
        {"AbStale", {}, C::NoCost, false, true, "no cost, no size, staleness"},
        {"AbRandom", {}, C::Random, false, false, "no cost, no size, no staleness (random)"},
    };
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
