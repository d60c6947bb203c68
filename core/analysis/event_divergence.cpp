#include "event_divergence.h"

namespace rematlens {

namespace {

std::optional<std::size_t> nextReferenceEvent(const std::vector<ReplayEvent> &events, std::size_t from)
{
    for (std::size_t i = from; i < events.size(); ++i)
        if (isReferenceKind(events[i].kind))
            return i;
    return std::nullopt;
}

bool sameReferenceEvent(const ReplayEvent &x, const ReplayEvent &y)
{
    return x.kind == y.kind && x.tensor == y.tensor && x.bytes == y.bytes;
}

} // namespace

std::optional<EventDivergence> findEventDivergence(const RunRecording &a, const RunRecording &b)
{
    std::size_t ia = 0;
    std::size_t ib = 0;
    for (std::size_t index = 0;; ++index) {
        const std::optional<std::size_t> ea = nextReferenceEvent(a.events, ia);
        const std::optional<std::size_t> eb = nextReferenceEvent(b.events, ib);
        if (!ea && !eb)
            return std::nullopt;
        if (!ea || !eb || !sameReferenceEvent(a.events[*ea], b.events[*eb]))
            return EventDivergence{index, ea, eb};
        ia = *ea + 1;
        ib = *eb + 1;
    }
}

} // namespace rematlens
