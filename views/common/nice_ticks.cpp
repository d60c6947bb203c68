#include "views/common/nice_ticks.h"

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

} // namespace rematlens
