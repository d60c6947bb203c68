#include "decimal_grid.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>

namespace rematlens {

namespace {

// A non-negative decimal as digits x 10^-scale.
struct Decimal {
    std::uint64_t digits = 0;
    int scale = 0;
};

std::optional<Decimal> parseDecimal(std::string_view text)
{
    Decimal d;
    bool seenPoint = false;
    bool seenDigit = false;
    for (char c : text) {
        if (c == '.' && !seenPoint) {
            seenPoint = true;
            continue;
        }
        if (c < '0' || c > '9' || d.digits > (UINT64_MAX - 9) / 10 || d.scale >= 18)
            return std::nullopt;
        d.digits = d.digits * 10 + static_cast<std::uint64_t>(c - '0');
        d.scale += seenPoint ? 1 : 0;
        seenDigit = true;
    }
    if (!seenDigit)
        return std::nullopt;
    return d;
}

bool rescale(Decimal &d, int scale)
{
    for (; d.scale < scale; ++d.scale) {
        if (d.digits > UINT64_MAX / 10)
            return false;
        d.digits *= 10;
    }
    return true;
}

std::string format(std::uint64_t digits, int scale)
{
    const std::string text = std::to_string(digits);
    if (scale == 0)
        return text;
    const auto fraction = static_cast<std::size_t>(scale);
    const std::string padded = text.size() <= fraction ? std::string(fraction + 1 - text.size(), '0') + text : text;
    return padded.substr(0, padded.size() - fraction) + "." + padded.substr(padded.size() - fraction);
}

} // namespace

std::optional<double> DecimalGrid::parseRatio(std::string_view text)
{
    double value = 0;
    const char *end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end || !std::isfinite(value))
        return std::nullopt;
    return value;
}

std::optional<std::vector<GridPoint>> DecimalGrid::make(std::string_view from, std::string_view to,
                                                        std::string_view step, std::string &error)
{
    std::optional<Decimal> a = parseDecimal(from);
    std::optional<Decimal> b = parseDecimal(to);
    std::optional<Decimal> s = parseDecimal(step);
    if (!a || !b || !s) {
        error = "--from, --to and --step expect plain decimals such as 0.1, 1.0 and 0.001";
        return std::nullopt;
    }
    const int scale = std::max({a->scale, b->scale, s->scale});
    if (!rescale(*a, scale) || !rescale(*b, scale) || !rescale(*s, scale)) {
        error = "--from, --to and --step have too many digits";
        return std::nullopt;
    }
    if (s->digits == 0 || a->digits == 0 || a->digits > b->digits) {
        error = "expected 0 < --from <= --to and --step > 0";
        return std::nullopt;
    }
    const std::uint64_t count = (b->digits - a->digits) / s->digits + 1;
    if (count > kMaxPoints) {
        error = "the grid has " + std::to_string(count) + " points; at most " + std::to_string(kMaxPoints) + " are allowed";
        return std::nullopt;
    }
    std::vector<GridPoint> points;
    points.reserve(count);
    for (std::uint64_t k = 0; k < count; ++k) {
        std::string text = format(a->digits + k * s->digits, scale);
        const double ratio = *parseRatio(text);
        points.push_back({std::move(text), ratio});
    }
    return points;
}

} // namespace rematlens
