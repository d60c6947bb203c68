#include "app/requests/figure_options.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace rematlens {

namespace {

std::string lowerSuffix(const std::string &path)
{
    const std::size_t dot = path.find_last_of('.');
    const std::size_t slash = path.find_last_of('/');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash))
        return {};
    std::string suffix = path.substr(dot + 1);
    std::transform(suffix.begin(), suffix.end(), suffix.begin(), [](unsigned char c) { return std::tolower(c); });
    return suffix;
}

std::optional<double> positiveNumber(const std::string &text)
{
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || !(value > 0))
        return std::nullopt;
    return value;
}

} // namespace

std::string FigureOptions::kindName() const
{
    switch (kind) {
    case Kind::Strip: return "strip";
    case Kind::Timeline: return "timeline";
    case Kind::Cascade: return "cascade";
    case Kind::MemoryMap: return "memory-map";
    case Kind::HoleAnatomy: return "hole-anatomy";
    }
    return {};
}

std::string parseFigureSize(const std::string &text, FigureOptions &options)
{
    if (text == "single") {
        options.sizePreset = FigureOptions::SizePreset::SingleColumn;
        return {};
    }
    if (text == "double") {
        options.sizePreset = FigureOptions::SizePreset::DoubleColumn;
        return {};
    }
    if (text == "slide") {
        options.sizePreset = FigureOptions::SizePreset::Slide;
        return {};
    }
    const std::size_t x = text.find_first_of("xX");
    const std::optional<double> width = x == std::string::npos ? std::nullopt : positiveNumber(text.substr(0, x));
    const std::optional<double> height = x == std::string::npos ? std::nullopt : positiveNumber(text.substr(x + 1));
    if (!width || !height || *width > 100 || *height > 100)
        return "--size expects single, double, slide or WIDTHxHEIGHT in inches up to 100 (e.g. 6.75x2.5), got \"" +
               text + "\"";
    options.sizePreset = FigureOptions::SizePreset::Custom;
    options.widthInches = *width;
    options.heightInches = *height;
    return {};
}

std::string parseFigurePalette(const std::string &text, FigureOptions &options)
{
    if (text == "default")
        options.palette = FigureOptions::Palette::Default;
    else if (text == "colour-blind" || text == "color-blind")
        options.palette = FigureOptions::Palette::ColourBlindSafe;
    else if (text == "greyscale" || text == "grayscale")
        options.palette = FigureOptions::Palette::GreyscaleSafe;
    else
        return "--palette expects default, colour-blind or greyscale, got \"" + text + "\"";
    return {};
}

std::string parseFigureXAxis(const std::string &text, FigureOptions &options)
{
    if (text == "step")
        options.xAxis = FigureOptions::XAxis::Step;
    else if (text == "clock")
        options.xAxis = FigureOptions::XAxis::Clock;
    else
        return "--x expects step or clock, got \"" + text + "\"";
    return {};
}

std::string checkFigureOptions(const FigureOptions &options)
{
    const std::string suffix = lowerSuffix(options.outPath);
    if (suffix != "svg" && suffix != "pdf" && suffix != "png")
        return "--out expects a file ending in .svg, .pdf or .png, got \"" + options.outPath + "\"";
    if (!options.dataPath.empty() && lowerSuffix(options.dataPath) != "csv")
        return "--data expects a file ending in .csv, got \"" + options.dataPath + "\"";
    if (options.dpi < 10 || options.dpi > 2400)
        return "--dpi expects a resolution between 10 and 2400, got " + std::to_string(options.dpi);
    if (options.fontSize && !(*options.fontSize >= 2 && *options.fontSize <= 72))
        return "--font-size expects points between 2 and 72";
    if (options.traces.empty() && (options.kind != FigureOptions::Kind::Strip || options.sweepFiles.empty()))
        return "figure " + options.kindName() + " needs a trace" +
               (options.kind == FigureOptions::Kind::Strip ? " or --sweep-file" : "");
    if (!options.traces.empty() && !options.sweepFiles.empty())
        return "figure strip takes traces to sweep or --sweep-file, not both";
    if (options.exact && !options.sweepFiles.empty())
        return "figure strip --exact maps traces: give the traces, not --sweep-file";
    if (options.zoomFromBytes.has_value() != options.zoomToBytes.has_value() ||
        (options.zoomFromBytes && !(*options.zoomFromBytes >= 0 && *options.zoomFromBytes < *options.zoomToBytes)))
        return "--zoom-from-bytes and --zoom-to-bytes go together, with 0 <= from < to";
    if (options.mapStep && *options.mapStep < 0)
        return "--step expects a model step, 0 or more";
    if ((options.checkpointing || options.optimal) && !options.sweepFiles.empty())
        return "figure strip --checkpointing and --optimal read the trace: give the traces, not --sweep-file";
    if (!(options.timeLimit > 0))
        return "--time-limit expects a positive number of seconds";
    if (options.kind != FigureOptions::Kind::Strip && options.traces.size() > 1)
        return "figure " + options.kindName() + " shows one trace; several --trace go with figure strip";
    return {};
}

} // namespace rematlens
