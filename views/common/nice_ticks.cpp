#include "views/common/nice_ticks.h"

#include <algorithm>
#include <cmath>

namespace rematlens {

double niceTickInterval(double span, int targetTicks)
{
    if (!(span > 0) || targetTicks < 1)
        return 1;
    const double raw = span / targetTicks;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double fraction = raw / magnitude;
    const double nice = fraction < 1.5 ? 1 : fraction < 3.5 ? 2 : fraction < 7.5 ? 5 : 10;
    return nice * magnitude;
}

double niceTickIntervalWithin(double span, int targetTicks, int maxIntervals)
{
    double interval = niceTickInterval(span, targetTicks);
    if (!(span > 0))
        return interval;
    maxIntervals = std::max(maxIntervals, 1);
    while (span / interval > maxIntervals + 1e-9) {
        const double magnitude = std::pow(10.0, std::floor(std::log10(interval) + 1e-9));
        const double fraction = interval / magnitude;
        interval = (fraction < 1.5 ? 2 : fraction < 3.5 ? 5 : 10) * magnitude;
    }
    return interval;
}

double niceTickIntervalForTicks(double span, int targetTicks, int maxTicks)
{
    double interval = niceTickInterval(span, targetTicks);
    if (!(span > 0))
        return interval;
    maxTicks = std::max(maxTicks, 1);
    while (std::floor(span / interval + 1e-9) + 1 > maxTicks) {
        const double magnitude = std::pow(10.0, std::floor(std::log10(interval) + 1e-9));
        const double fraction = interval / magnitude;
        interval = (fraction < 1.5 ? 2 : fraction < 3.5 ? 5 : 10) * magnitude;
    }
    return interval;
}

int tickDecimals(double interval)
{
    if (!(interval > 0))
        return 0;
    for (int decimals = 0; decimals < 6; ++decimals) {
        const double scaled = interval * std::pow(10.0, decimals);
        if (std::abs(scaled - std::round(scaled)) < 1e-6 * scaled)
            return decimals;
    }
    return 6;
}

} // namespace rematlens
