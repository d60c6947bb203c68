#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rematlens {

// One budget ratio of a grid: the exact decimal and the double nearest to it.
struct GridPoint {
    std::string text; // "0.419"
    double ratio;     // the double nearest 0.419
};

// from, from + step, ..., up to `to`, computed in exact decimal arithmetic (k x step from
// `from`), each point converted to the nearest double once.
class DecimalGrid {
public:
    // Error text in `error` when the bounds are not positive decimals with from <= to.
    static std::optional<std::vector<GridPoint>> make(std::string_view from, std::string_view to,
                                                      std::string_view step, std::string &error);

    // The double nearest to a decimal written as text (correctly rounded), if it is one.
    static std::optional<double> parseRatio(std::string_view text);

    static constexpr std::size_t kMaxPoints = 10'000'000;
};

} // namespace rematlens
