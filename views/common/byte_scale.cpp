#include "views/common/byte_scale.h"

namespace rematlens {

ByteScale ByteScale::forPeak(double peakBytes)
{
    static constexpr std::string_view units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    ByteScale scale;
    for (std::size_t i = 1; i < std::size(units) && peakBytes >= scale.divisor * 1024; ++i) {
        scale.divisor *= 1024;
        scale.unit = units[i];
    }
    return scale;
}

} // namespace rematlens
