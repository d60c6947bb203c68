#pragma once

#include <QString>

#include <cstdint>
#include <string_view>

namespace rematlens {

enum class UnitSystem { Binary, Decimal };

// The one place that turns byte counts into text, so a tensor reads the same in the strip,
// the timeline, the cascade, the tables and every figure. Binary (KiB, MiB, GiB: what PyTorch
// and GPU tools report) unless the user chose decimal (kB, MB, GB). The choice is process-wide:
// the window sets it from its settings, `figure --units` for one figure.
class ByteUnits {
public:
    static UnitSystem system();
    static void setSystem(UnitSystem system);
    static double base() { return system() == UnitSystem::Binary ? 1024.0 : 1000.0; }
    // Unit names from bytes up: B, KiB, MiB, GiB, TiB (or B, kB, MB, GB, TB).
    static std::string_view unitName(int power);
    // "5.22 MiB": three significant digits in the largest unit in which the value is at least 1.
    static QString format(double bytes);
    // "8,415,764,640 B"
    static QString exact(std::int64_t bytes);
    static std::string_view systemName(UnitSystem system);
    static bool parseSystem(std::string_view name, UnitSystem &system);
};

} // namespace rematlens
