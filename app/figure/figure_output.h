#pragma once

#include "app/requests/figure_options.h"
#include "app/formats/provenance.h"
#include "views/figure/figure_sizes.h"
#include "views/figure/figure_source.h"
#include "views/figure/figure_style.h"

#include <QSizeF>

#include <optional>
#include <string>

namespace rematlens {

// Heights (inches) a kind of figure wants at each paper width; the slide is always 16:9.
struct FigureHeights {
    double singleColumn = FigureSizes::kSingleColumnHeight;
    double doubleColumn = FigureSizes::kDoubleColumnHeight;
};

// What every figure kind shares between its command-line options and the written files.
class FigureOutput {
public:
    static FigureStyle style(const FigureOptions &options);
    // The preset's width (single 3.25 in, double 6.75 in, slide 10 in) and the kind's height,
    // or the custom WxH as given.
    static QSizeF sizeInches(const FigureOptions &options, const FigureHeights &heights);
    // Writes --out (and --data, when given), reports what went wrong on stderr and returns the
    // exit status.
    static int write(const FigureSource &source, const FigureOptions &options, const QSizeF &inches);
    // What the figure's metadata and its --data CSV say made them.
    static std::optional<Provenance> provenance(const FigureOptions &options, std::string &error);

    static constexpr double kSingleColumnWidth = FigureSizes::kSingleColumnWidth;
    static constexpr double kDoubleColumnWidth = FigureSizes::kDoubleColumnWidth;
    static constexpr double kSlideWidth = FigureSizes::kSlideWidth;
    static constexpr double kSlideHeight = FigureSizes::kSlideHeight;
};

} // namespace rematlens
