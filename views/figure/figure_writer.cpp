#include "views/figure/figure_writer.h"
#include "views/figure/figure_sizes.h"

#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>

namespace rematlens {

namespace {

QRectF pointsRect(const FigureWriter::Options &options)
{
    const QSizeF points = options.sizeInches * FigureSizes::kPointsPerInch;
    return QRectF(QPointF(0, 0), points);
}

void paintOn(QPainter &painter, const FigureSource &source, const FigureWriter::Options &options)
{
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.setFont(options.style.font()); // no group in the SVG carries the desktop's font
    source.paintFigure(painter, pointsRect(options), options.style);
}

QString cannotWrite(const QString &path)
{
    return QStringLiteral("cannot write %1").arg(path);
}

} // namespace

bool FigureWriter::supportedSuffix(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == u"png" || suffix == u"svg" || suffix == u"pdf";
}

QString FigureWriter::write(const FigureSource &source, const QString &path, const Options &options)
{
    if (options.sizeInches.width() <= 0 || options.sizeInches.height() <= 0)
        return QStringLiteral("the figure size must be positive");
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == u"png")
        return writePng(source, path, options);
    if (suffix == u"svg")
        return writeSvg(source, path, options);
    if (suffix == u"pdf")
        return writePdf(source, path, options);
    return QStringLiteral("%1: unknown figure format \"%2\" (expected .svg, .pdf or .png)").arg(path, suffix);
}

QString FigureWriter::writePng(const FigureSource &source, const QString &path, const Options &options)
{
    if (options.dpi < 10 || options.dpi > 2400)
        return QStringLiteral("the resolution must be between 10 and 2400 dpi");
    const QSize pixels(qRound(options.sizeInches.width() * options.dpi), qRound(options.sizeInches.height() * options.dpi));
    QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    const int dotsPerMeter = qRound(options.dpi / 0.0254);
    image.setDotsPerMeterX(dotsPerMeter);
    image.setDotsPerMeterY(dotsPerMeter);
    {
        QPainter painter(&image);
        painter.scale(options.dpi / FigureSizes::kPointsPerInch, options.dpi / FigureSizes::kPointsPerInch);
        paintOn(painter, source, options);
    }
    if (!options.provenance.isEmpty())
        image.setText(QString::fromLatin1(kProvenanceKey), options.provenance);
    image.setText(QStringLiteral("Software"), options.creator);
    return image.save(path, "PNG") ? QString() : cannotWrite(path);
}

QString FigureWriter::writeSvg(const FigureSource &source, const QString &path, const Options &options)
{
    const QRectF rect = pointsRect(options);
    QSvgGenerator svg;
    svg.setFileName(path);
    // width and height (in mm) come from an integer size over a resolution: tenths of a point
    // keep sizes such as 2.2 in (158.4 pt) exact.
    svg.setSize((rect.size() * 10).toSize());
    svg.setViewBox(rect);
    svg.setResolution(int(FigureSizes::kPointsPerInch * 10));
    svg.setTitle(source.figureTitle());
    svg.setDescription(QStringLiteral("RematLens figure"));
    QPainter painter;
    if (!painter.begin(&svg))
        return cannotWrite(path);
    paintOn(painter, source, options);
    if (!painter.end())
        return cannotWrite(path);
    return options.provenance.isEmpty() ? QString() : addSvgMetadata(path, options.provenance);
}

// QSvgGenerator writes no <metadata>: it goes in after the <desc> the generator wrote.
QString FigureWriter::addSvgMetadata(const QString &path, const QString &provenance)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return cannotWrite(path);
    QByteArray svg = file.readAll();
    file.close();
    const qsizetype at = svg.indexOf("</desc>");
    if (at < 0)
        return QStringLiteral("%1: the SVG has no <desc> to put the metadata after").arg(path);
    const QByteArray metadata = "\n<metadata><rematlens:" + QByteArray(kProvenanceKey)
                                + " xmlns:rematlens=\"https://github.com/rematlens\">" + provenance.toHtmlEscaped().toUtf8()
                                + "</rematlens:" + QByteArray(kProvenanceKey) + "></metadata>";
    svg.insert(at + qsizetype(sizeof("</desc>") - 1), metadata);
    QSaveFile out(path);
    if (!out.open(QIODevice::WriteOnly) || out.write(svg) != svg.size() || !out.commit())
        return cannotWrite(path);
    return {};
}

// An XMP packet with the title, the creator and the provenance (dc:description would be
// read as a caption, so the provenance has a property of its own).
QByteArray FigureWriter::xmpPacket(const QString &title, const Options &options)
{
    const auto escaped = [](const QString &text) { return text.toHtmlEscaped().toUtf8(); };
    return "<?xpacket begin='' id='W5M0MpCehiHzreSzNTczkc9d'?>\n"
           "<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>\n"
           "<rdf:Description rdf:about='' xmlns:dc='http://purl.org/dc/elements/1.1/' "
           "xmlns:xmp='http://ns.adobe.com/xap/1.0/' xmlns:rematlens='https://github.com/rematlens'>\n"
           "<dc:title><rdf:Alt><rdf:li xml:lang='x-default'>"
           + escaped(title) + "</rdf:li></rdf:Alt></dc:title>\n<xmp:CreatorTool>" + escaped(options.creator)
           + "</xmp:CreatorTool>\n<rematlens:" + QByteArray(kProvenanceKey) + ">" + escaped(options.provenance)
           + "</rematlens:" + QByteArray(kProvenanceKey)
           + ">\n</rdf:Description></rdf:RDF></x:xmpmeta>\n<?xpacket end='w'?>";
}

// Qt's PDF pages are whole points, so the figure is drawn at the size rounded to the nearest
// point (at most half a point off): the drawing fills the page exactly, nothing is cut.
QString FigureWriter::writePdf(const FigureSource &source, const QString &path, const Options &options)
{
    const QSize points = pointsRect(options).size().toSize();
    QPdfWriter pdf(path);
    pdf.setTitle(source.figureTitle());
    pdf.setCreator(options.creator);
    if (!options.provenance.isEmpty())
        pdf.setDocumentXmpMetadata(xmpPacket(source.figureTitle(), options));
    pdf.setPageSize(QPageSize(points, QPageSize::Point, QString(), QPageSize::ExactMatch));
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    pdf.setResolution(int(FigureSizes::kPointsPerInch));
    QPainter painter;
    if (!painter.begin(&pdf))
        return cannotWrite(path);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.setFont(options.style.font());
    source.paintFigure(painter, QRectF(QPointF(0, 0), QSizeF(points)), options.style);
    return painter.end() ? QString() : cannotWrite(path);
}

} // namespace rematlens
