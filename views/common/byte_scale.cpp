#include "views/common/byte_scale.h"

#include "views/common/byte_units.h"

namespace rematlens {

ByteScale ByteScale::forPeak(double peakBytes)
{
    const double base = ByteUnits::base();
    ByteScale scale;
    for (int power = 1; power <= 4 && peakBytes >= scale.divisor * base; ++power) {
        scale.divisor *= base;
        scale.unit = ByteUnits::unitName(power);
    }
    return scale;
}

} // namespace rematlens
