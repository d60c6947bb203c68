#pragma once

#include "core/sim/run_identity.h"

#include <compare>

namespace rematlens {

// A hole as the window lists it: its row and its first and last failing budgets (grid budgets,
// or the exact bytes of a map's hole). The Hole anatomy panel caches one explanation per key.
struct HoleKey {
    RowIdentity row;
    Bytes firstFail = 0;
    Bytes lastFail = 0;

    auto operator<=>(const HoleKey &) const = default;
    bool operator==(const HoleKey &) const = default;
};

} // namespace rematlens
