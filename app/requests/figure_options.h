#pragma once

#include "app/requests/allocator_options.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rematlens {

// What `rematlens figure KIND ...` asked for. Plain text and numbers (the command-line library
// knows no Qt Gui); the figure library turns them into a style, a size and a drawing.
struct FigureOptions {
    enum class Kind { Strip, Timeline, Cascade, MemoryMap, HoleAnatomy };
    enum class SizePreset { SingleColumn, DoubleColumn, Slide, Custom };
    enum class Palette { Default, ColourBlindSafe, GreyscaleSafe };
    enum class XAxis { Step, Clock };

    Kind kind = Kind::Strip;
    std::vector<std::string> traces; // the positional traces, then every --trace
    std::string outPath;             // .svg, .pdf or .png
    std::string dataPath;            // the CSV behind the figure; empty: none

    // Look and size.
    SizePreset sizePreset = SizePreset::DoubleColumn;
    double widthInches = 0;         // Custom only
    double heightInches = 0;        // Custom only
    int dpi = 300;                  // PNG only
    std::optional<double> fontSize; // points; default per preset (fontSizeOrDefault)
    Palette palette = Palette::Default;
    bool decimalUnits = false; // kB, MB, GB instead of KiB, MiB, GiB

    // The runs shown.
    std::vector<std::string> policies; // empty: DTR
    std::string runtime = "eager";
    std::string overheadLimit = "2.0";
    std::optional<std::string> ratio;        // timeline, cascade: the budget as a fraction
    std::optional<std::int64_t> budget;      // ... or in bytes
    std::optional<std::string> compareRatio; // a second budget to set beside the first
    XAxis xAxis = XAxis::Step;
    std::uint64_t seed = 0;
    AllocatorOptions allocator;
    std::optional<std::int64_t> mapStep; // memory-map: the model step (default: failing, else peak reserved)

    // strip: the sweep to run, or sweep files to read instead.
    std::string from = "0.1";
    std::string to = "1.0";
    std::string step = "0.01";
    std::vector<std::string> sweepFiles; // one panel each, as written by `rematlens sweep --out`
    int threads = 0;
    std::optional<double> wallLimit;
    bool exact = false;         // strip: also map the range exactly; mapped rows draw intervals to scale
    std::optional<std::int64_t> zoomFromBytes; // strip: show only these budgets
    std::optional<std::int64_t> zoomToBytes;
    bool checkpointing = false; // strip: a row of static checkpointing under the policies
    bool optimal = false;       // strip: a row of the optimal schedule
    double timeLimit = 2;       // seconds per budget of that row

    // 8 pt on paper (LaTeX figure text), 14 pt on a slide.
    double fontSizeOrDefault() const { return fontSize.value_or(sizePreset == SizePreset::Slide ? 14.0 : 8.0); }
    std::string kindName() const;
};

// "single", "double", "slide" or "WxH" in inches ("6.75x2.5"); an error message otherwise.
std::string parseFigureSize(const std::string &text, FigureOptions &options);
std::string parseFigurePalette(const std::string &text, FigureOptions &options);
std::string parseFigureXAxis(const std::string &text, FigureOptions &options);
// What needs no trace: output suffixes, ranges of numbers. Empty when all is well.
std::string checkFigureOptions(const FigureOptions &options);

} // namespace rematlens
