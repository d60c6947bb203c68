#include "views/common/axis_ticks.h"

#include <QValueAxis>

#include <algorithm>

namespace rematlens {

void setAxisTicks(QValueAxis *axis, double min, double max, double interval)
{
    const double span = std::max(max - min, 0.0);
    if (!(interval > 0) || span / interval > kMaxTicks)
        interval = span > 0 ? span / kMaxTicks : 1.0;
    axis->setTickType(QValueAxis::TicksDynamic);
    // Whichever change lowers the tick count goes first, so no intermediate state has more
    // ticks than the larger of the old and the new one.
    if (interval >= axis->tickInterval()) {
        axis->setTickInterval(interval);
        axis->setRange(min, max);
    } else {
        axis->setRange(min, max);
        axis->setTickInterval(interval);
    }
}

} // namespace rematlens
