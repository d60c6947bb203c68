#pragma once

#include "allocator.h"
#include "allocator_config.h"

namespace rematlens {

// The model the configuration names, with the given capacity.
std::unique_ptr<Allocator> makeAllocator(const AllocatorConfig &config, Bytes capacity);

} // namespace rematlens
