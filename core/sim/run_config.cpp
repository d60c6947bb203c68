#include "run_config.h"

namespace rematlens {

std::string configProblem(const RunConfig &config)
{
    if (config.runtime == RuntimeKind::Banishing && !config.policy.runsOnBanishing())
        return "policy " + config.policy.name
               + " needs evicted-neighbourhood bookkeeping that the banishing runtime does not keep "
                 "(simrd refuses this combination); use DTRUnopt, DTRLocal, LRU, LargestStorage or a random policy";
    if (config.budget < 0)
        return "the budget must not be negative";
    return {};
}

} // namespace rematlens
