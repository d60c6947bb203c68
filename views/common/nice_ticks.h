#pragma once

namespace rematlens {

// A tick interval of 1, 2 or 5 times a power of ten giving about `targetTicks` ticks over
// `span`, so axes read 0, 500, 1000 rather than 0, 633, 1265.
double niceTickInterval(double span, int targetTicks);
// The same, widened to the next 1, 2 or 5 times a power of ten until `span` holds at most
// `maxIntervals` of them, so tick labels keep their room on a short axis.
double niceTickIntervalWithin(double span, int targetTicks, int maxIntervals);
// The same, widened until at most `maxTicks` ticks, multiples of the interval from 0, fall in
// [0, span]: an axis whose top is not a multiple of the interval keeps a labelled tick above 0
// where it has room for two.
double niceTickIntervalForTicks(double span, int targetTicks, int maxTicks);
// Decimals a label needs to tell ticks this far apart: 0.25 -> 2, 0.5 -> 1, 20 -> 0.
int tickDecimals(double interval);

} // namespace rematlens
