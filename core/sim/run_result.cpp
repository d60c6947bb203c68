#include "replay_event.h"
#include "run_result.h"

namespace rematlens {

std::string_view outcomeName(Outcome outcome)
{
    switch (outcome) {
    case Outcome::Pass: return "pass";
    case Outcome::OutOfMemory: return "oom";
    case Outcome::Thrash: return "thrash";
    case Outcome::Timeout: return "timeout";
    case Outcome::Cancelled: return "cancelled";
    case Outcome::Impossible: return "impossible";
    }
    return "pass";
}

std::optional<Outcome> findOutcome(std::string_view name)
{
    for (Outcome o : {Outcome::Pass, Outcome::OutOfMemory, Outcome::Thrash, Outcome::Timeout, Outcome::Cancelled,
                      Outcome::Impossible})
        if (outcomeName(o) == name)
            return o;
    return std::nullopt;
}

std::string_view eventKindName(ReplayEvent::Kind kind)
{
    switch (kind) {
    case ReplayEvent::Kind::Evict: return "evict";
    case ReplayEvent::Kind::Free: return "free";
    case ReplayEvent::Kind::Remat: return "remat";
    case ReplayEvent::Kind::Compute: return "compute";
    }
    return "evict";
}

void Failure::restateAt(Bytes budget)
{
    if (capacityFigures) {
        bytesShort = capacityFigures->bytesShortUnder(budget);
        largestFreeBlock = capacityFigures->largestFreeBlockUnder(budget);
    } else if (!oomKind) {
        bytesShort = memoryInUse + bytesNeeded - budget;
    }
}

} // namespace rematlens
