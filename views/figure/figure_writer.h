#pragma once

#include "views/figure/figure_source.h"

#include <QSizeF>
#include <QString>

namespace rematlens {

// Writes a FigureSource to PNG (at a chosen DPI), SVG or PDF (vector, text kept as text,
// fonts embedded), chosen by the file's suffix. All three paint in points, so one drawing
// comes out alike everywhere.
class FigureWriter {
public:
    struct Options {
        QSizeF sizeInches{6.75, 2.5};
        int dpi = 300; // PNG only
        FigureStyle style;
        // What made the figure (JSON text), kept in the file's metadata: SVG <metadata>, the
        // PDF's XMP packet, a PNG text chunk; all under the key "provenance".
        QString provenance;
        QString creator = QStringLiteral("RematLens");
    };
    static constexpr const char *kProvenanceKey = "provenance";

    // Empty on success, otherwise what went wrong (naming the file).
    static QString write(const FigureSource &source, const QString &path, const Options &options);
    static bool supportedSuffix(const QString &path);

private:
    static QString writePng(const FigureSource &source, const QString &path, const Options &options);
    static QString writeSvg(const FigureSource &source, const QString &path, const Options &options);
    static QString writePdf(const FigureSource &source, const QString &path, const Options &options);
    static QString addSvgMetadata(const QString &path, const QString &provenance);
    static QByteArray xmpPacket(const QString &title, const Options &options);
};

} // namespace rematlens
