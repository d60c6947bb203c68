#pragma once

#include "allocator.h"

#include <string>

namespace rematlens {

// The invariants every model keeps after every call, or what is broken: segments never overlap
// and are covered by their blocks without gaps, no two free (or two unmapped) blocks are
// neighbours (every freed byte was coalesced back), allocated and reserved bytes add up, and
// allocated <= reserved <= capacity. Also the model's own bookkeeping (its free sets).
std::string allocatorProblem(const Allocator &allocator);

} // namespace rematlens
