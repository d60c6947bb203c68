#pragma once

#include <cstdint>
#include <string_view>

namespace rematlens {

// The binary unit (B, KiB, MiB, GiB, TiB) a memory axis is labelled in: the largest one in
// which `peak` is at least 1, so tick labels stay short.
struct ByteScale {
    double divisor = 1;
    std::string_view unit = "B";

    static ByteScale forPeak(double peakBytes);
    double toUnits(double bytes) const { return bytes / divisor; }
    double toBytes(double units) const { return units * divisor; }
};

} // namespace rematlens
