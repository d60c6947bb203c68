#include "figure_output.h"

#include "app/requests/loaded_trace.h"
#include "app/requests/request_reporter.h"
#include "app/requests/request_settings.h"
#include "views/figure/figure_writer.h"

#include <QFile>
#include <QSaveFile>

#include <algorithm>
#include <iostream>

namespace rematlens {

FigureStyle FigureOutput::style(const FigureOptions &options)
{
    FigureStyle style;
    style.fontSize = options.fontSizeOrDefault();
    switch (options.palette) {
    case FigureOptions::Palette::Default: style.palette = FigureStyle::Palette::Default; break;
    case FigureOptions::Palette::ColourBlindSafe: style.palette = FigureStyle::Palette::ColourBlindSafe; break;
    case FigureOptions::Palette::GreyscaleSafe: style.palette = FigureStyle::Palette::GreyscaleSafe; break;
    }
    // Lines keep their weight relative to the text on slides.
    const double scale = style.fontSize / 8.0;
    style.lineWidth *= std::max(1.0, scale);
    style.axisWidth *= std::max(1.0, scale);
    return style;
}

QSizeF FigureOutput::sizeInches(const FigureOptions &options, const FigureHeights &heights)
{
    switch (options.sizePreset) {
    case FigureOptions::SizePreset::SingleColumn: return {kSingleColumnWidth, heights.singleColumn};
    case FigureOptions::SizePreset::DoubleColumn: return {kDoubleColumnWidth, heights.doubleColumn};
    case FigureOptions::SizePreset::Slide: return {kSlideWidth, kSlideHeight};
    case FigureOptions::SizePreset::Custom: return {options.widthInches, options.heightInches};
    }
    return {kDoubleColumnWidth, heights.doubleColumn};
}

std::optional<Provenance> FigureOutput::provenance(const FigureOptions &options, std::string &error)
{
    std::optional<Provenance> p = Provenance::forTraces(options.traces, error);
    if (!p)
        return std::nullopt;
    p->set("figure", options.kindName());
    p->set("policies", options.policies.empty() ? std::vector<std::string>{"DTR"} : options.policies);
    p->set("runtime", options.runtime);
    p->set("overhead_limit", options.overheadLimit);
    p->set("seed", options.seed);
    if (options.ratio)
        p->set("ratio", *options.ratio);
    if (options.budget)
        p->set("budget", *options.budget);
    if (options.compareRatio)
        p->set("compare_ratio", *options.compareRatio);
    if (options.kind == FigureOptions::Kind::Strip && options.sweepFiles.empty())
        p->set("grid", {{"from", options.from}, {"to", options.to}, {"step", options.step}});
    Provenance::Json files = Provenance::Json::array();
    for (const std::string &file : options.sweepFiles) {
        const std::optional<Provenance> theirs = Provenance::readFrom(file);
        files.push_back({{"file", file}, {Provenance::kKey, theirs ? theirs->fields() : Provenance::Json()}});
    }
    if (!files.empty())
        p->set("sweep_files", files);
    return p;
}

int FigureOutput::write(const FigureSource &source, const FigureOptions &options, const QSizeF &inches)
{
    std::string error;
    const std::optional<Provenance> made = provenance(options, error);
    if (!made)
        return reportError(ExitBadInput, error);
    FigureWriter::Options writerOptions;
    writerOptions.sizeInches = inches;
    writerOptions.dpi = options.dpi;
    writerOptions.style = style(options);
    writerOptions.provenance = QString::fromStdString(made->fields().dump());
    writerOptions.creator = QString::fromStdString("RematLens " + Provenance::version());
    const QString out = QString::fromStdString(options.outPath);
    if (const QString problem = FigureWriter::write(source, out, writerOptions); !problem.isEmpty())
        return reportError(ExitBadInput, problem.toStdString());
    if (!options.dataPath.empty()) {
        QSaveFile data(QString::fromStdString(options.dataPath));
        const QByteArray csv = QByteArray::fromStdString(made->csvLine()) + source.figureCsv().toUtf8();
        if (!data.open(QIODevice::WriteOnly) || data.write(csv) != csv.size() || !data.commit())
            return reportError(ExitBadInput, "cannot write " + options.dataPath);
    }
    std::cerr << "figure: wrote " << options.outPath << " (" << inches.width() << " x " << inches.height() << " in)"
              << (options.dataPath.empty() ? "" : " and " + options.dataPath) << std::endl;
    return ExitOk;
}

} // namespace rematlens
