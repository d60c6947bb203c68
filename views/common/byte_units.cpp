#include "views/common/byte_units.h"

#include "views/common/number_format.h"

#include <atomic>
#include <cmath>

namespace rematlens {

namespace {

std::atomic<UnitSystem> g_system{UnitSystem::Binary};

} // namespace

UnitSystem ByteUnits::system()
{
    return g_system.load(std::memory_order_relaxed);
}

void ByteUnits::setSystem(UnitSystem system)
{
    g_system.store(system, std::memory_order_relaxed);
}

std::string_view ByteUnits::unitName(int power)
{
    static constexpr std::string_view binary[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    static constexpr std::string_view decimal[] = {"B", "kB", "MB", "GB", "TB"};
    const int p = power < 0 ? 0 : power > 4 ? 4 : power;
    return system() == UnitSystem::Binary ? binary[p] : decimal[p];
}

QString ByteUnits::format(double bytes)
{
    const double b = base();
    int power = 0;
    double value = bytes;
    while (power < 4 && std::abs(value) >= b) {
        value /= b;
        ++power;
    }
    if (power == 0)
        return QStringLiteral("%1 B").arg(numberLocale().toString(qlonglong(std::llround(bytes))));
    const double magnitude = std::abs(value);
    const int decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2;
    const std::string_view unit = unitName(power);
    return QStringLiteral("%1 %2").arg(QString::number(value, 'f', decimals),
                                       QString::fromLatin1(unit.data(), qsizetype(unit.size())));
}

QString ByteUnits::exact(std::int64_t bytes)
{
    return numberLocale().toString(qlonglong(bytes)) + QStringLiteral(" B");
}

std::string_view ByteUnits::systemName(UnitSystem system)
{
    return system == UnitSystem::Binary ? "binary" : "decimal";
}

bool ByteUnits::parseSystem(std::string_view name, UnitSystem &system)
{
    if (name == "binary" || name == "decimal") {
        system = name == "binary" ? UnitSystem::Binary : UnitSystem::Decimal;
        return true;
    }
    return false;
}

} // namespace rematlens
