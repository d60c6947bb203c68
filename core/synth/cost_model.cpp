#include "cost_model.h"

#include <algorithm>
#include <cmath>

namespace rematlens {

Bytes CostModel::bytes(std::initializer_list<std::int64_t> shape) const
{
    Bytes total = elementBytes;
    for (std::int64_t extent : shape)
        total *= extent;
    return total;
}

Cost CostModel::time(double flops, double bytesMoved) const
{
    const double nanoseconds = std::max(flops / flopsPerNanosecond, bytesMoved / bytesPerNanosecond);
    return std::max<Cost>(1, static_cast<Cost>(std::llround(nanoseconds)));
}

} // namespace rematlens
