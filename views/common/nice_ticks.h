#pragma once

namespace rematlens {

// A tick interval of 1, 2 or 5 times a power of ten giving about `targetTicks` ticks over
// `span`, so axes read 0, 500, 1000 rather than 0, 633, 1265.
double niceTickInterval(double span, int targetTicks);

} // namespace rematlens
