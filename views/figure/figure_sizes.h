#pragma once

namespace rematlens {

// Figure widths of the usual two-column paper and of a 16:9 slide, in inches: the command
// line and the export dialog offer the same presets.
struct FigureSizes {
    static constexpr double kPointsPerInch = 72.0;
    static constexpr double kSingleColumnWidth = 3.25;
    static constexpr double kDoubleColumnWidth = 6.75;
    static constexpr double kSlideWidth = 10.0;
    static constexpr double kSlideHeight = 5.625;
    // Heights that suit a strip-like figure at each paper width.
    static constexpr double kSingleColumnHeight = 2.2;
    static constexpr double kDoubleColumnHeight = 2.5;
};

} // namespace rematlens
