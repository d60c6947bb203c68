// Figures for papers, offscreen: every format comes out valid and at the asked size (SVG width,
// height and viewBox; PDF MediaBox and embedded fonts; PNG pixels = inches x dpi), the strip of
// a fixed trace matches a stored reference PNG, the command line writes all three formats and
// the CSV, small multiples lay out in a grid, and the export dialog previews and writes.
//
// Every kind of figure, at every size the command line and the export dialog offer, keeps each
// of its texts whole: no axis label, title or legend entry elided to "..." or left empty.
//
// Reference PNG: tests/data/figures/strip-demo.png, the DTR and LRU strip of traces/demo.log
// over 0.10-1.00 step 0.01, single column (3.25 x 2.2 in) at 100 dpi. Text rasterization
// differs slightly between FreeType versions, so the comparison allows a mean absolute
// difference of kReferenceTolerance (on 0-255, over every channel of every pixel); a figure
// with other colours, a lost curve or moved cells differs by several times that. To refresh
// the reference after a deliberate change: REMATLENS_UPDATE_FIGURES=1 tests/tst_figures.
#include "gui/test_window.h"
#include "svg_texts.h"

#include "app/requests/figure_options.h"
#include "app/figure/strip_panel_set.h"
#include "app/gui/export_figure_dialog.h"
#include "app/gui/main_window.h"
#include "views/strip/feasibility_strip.h"
#include "views/figure/figure_preview.h"
#include "views/figure/figure_writer.h"
#include "views/strip/strip_figure.h"

#include <QComboBox>
#include <QCryptographicHash>
#include <QDoubleSpinBox>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPainter>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

using namespace rematlens;

namespace {

constexpr double kReferenceTolerance = 3.0;

QString repoFile(const char *relative)
{
    return QStringLiteral(REMATLENS_SOURCE_DIR "/") + QString::fromLatin1(relative);
}

FigureOptions demoOptions()
{
    FigureOptions options;
    options.policies = {"DTR", "LRU"};
    options.from = "0.10";
    options.to = "1.00";
    options.step = "0.01";
    options.threads = 2;
    return options;
}

struct SvgFrame {
    QString width, height, viewBox;
    int texts = 0;
    bool wellFormed = false;
};

QByteArray fileContent(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QByteArray sha256Of(const QString &path)
{
    return QCryptographicHash::hash(fileContent(path), QCryptographicHash::Sha256).toHex();
}

SvgFrame readSvg(const QString &path)
{
    QFile file(path);
    SvgFrame frame;
    if (!file.open(QIODevice::ReadOnly))
        return frame;
    QXmlStreamReader xml(&file);
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        if (xml.name() == u"svg") {
            frame.width = xml.attributes().value(QStringLiteral("width")).toString();
            frame.height = xml.attributes().value(QStringLiteral("height")).toString();
            frame.viewBox = xml.attributes().value(QStringLiteral("viewBox")).toString();
        }
    }
    frame.wellFormed = !xml.hasError();
    frame.texts = int(svgTexts(path).size());
    return frame;
}

double meanAbsoluteDifference(const QImage &a, const QImage &b)
{
    const QImage x = a.convertToFormat(QImage::Format_RGB32);
    const QImage y = b.convertToFormat(QImage::Format_RGB32);
    double sum = 0;
    for (int row = 0; row < x.height(); ++row) {
        const auto *p = reinterpret_cast<const QRgb *>(x.constScanLine(row));
        const auto *q = reinterpret_cast<const QRgb *>(y.constScanLine(row));
        for (int column = 0; column < x.width(); ++column)
            sum += std::abs(qRed(p[column]) - qRed(q[column])) + std::abs(qGreen(p[column]) - qGreen(q[column])) +
                   std::abs(qBlue(p[column]) - qBlue(q[column]));
    }
    return sum / (3.0 * x.width() * x.height());
}

int runRematlens(const QStringList &arguments)
{
    QProcess process;
    process.start(QStringLiteral(REMATLENS_BINARY), arguments);
    if (!process.waitForFinished(120000))
        return -1;
    return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
}

} // namespace

class FiguresTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void svgHasSizeAndViewBox();
    void zoomedStripSvgStaysInItsCells();
    void pdfHasMediaBoxAndEmbeddedFonts();
    void pngHasPixelsForSizeAndDpi_data();
    void pngHasPixelsForSizeAndDpi();
    void stripMatchesReference();
    void palettesChangeColours();
    void csvHasARowPerRun();
    void smallMultiplesFormAGrid();
    void commandLineWritesEveryFormat_data();
    void commandLineWritesEveryFormat();
    void commandLineRejectsBadOptions();
    void everyFigureKeepsItsTextsWhole_data();
    void everyFigureKeepsItsTextsWhole();
    void sweepFileDrawsTheSameRuns();
    void stripWidgetIsTheSameFigure();
    void exportDialogPreviewsAndWrites();
    void mainWindowOffersTheStrip();

private:
    QString path(const QString &name) const { return m_user.filePath(name); }

    GuiTestUser m_user;
    StripPanelSet m_demo;
    std::unique_ptr<StripFigure> m_figure;
};

void FiguresTest::initTestCase()
{
    m_user.setUp();
    QCOMPARE(m_demo.addSweep(repoFile("traces/demo.log").toStdString(), demoOptions()), 0);
    m_figure = std::make_unique<StripFigure>(m_demo.panels());
}

void FiguresTest::svgHasSizeAndViewBox()
{
    FigureWriter::Options options;
    options.sizeInches = {6.75, 2.5};
    const QString file = path(QStringLiteral("strip.svg"));
    QCOMPARE(FigureWriter::write(*m_figure, file, options), QString());
    const SvgFrame frame = readSvg(file);
    QVERIFY(frame.wellFormed);
    QCOMPARE(frame.width, QStringLiteral("171.45mm")); // 6.75 in
    QCOMPARE(frame.height, QStringLiteral("63.5mm"));  // 2.5 in
    QCOMPARE(frame.viewBox, QStringLiteral("0 0 486 180")); // points
    QVERIFY2(frame.texts > 10, "labels stay text");
    QSvgRenderer renderer(file);
    QVERIFY(renderer.isValid());
    QCOMPARE(renderer.viewBoxF(), QRectF(0, 0, 486, 180));
}

// SVG files Qt writes keep no clip: a zoomed strip cuts its cells, holes and curves itself, so
// nothing is drawn over the row labels or past the right edge.
void FiguresTest::zoomedStripSvgStaysInItsCells()
{
    std::vector<StripFigure::Panel> panels = m_demo.panels();
    const double columns = double(panels.front().sweep->gridSize());
    panels.front().viewFrom = 0.3 * columns;
    panels.front().viewTo = 0.7 * columns;
    const StripFigure zoomed(panels);
    FigureWriter::Options options;
    options.sizeInches = {6.75, 2.5};
    const QString file = path(QStringLiteral("zoomed.svg"));
    QCOMPARE(FigureWriter::write(zoomed, file, options), QString());
    QSvgRenderer renderer(file);
    QVERIFY(renderer.isValid());
    const QRectF bounds = renderer.viewBoxF();
    constexpr int scale = 3;
    QImage image((bounds.size() * scale).toSize(), QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    renderer.render(&painter, QRectF(QPointF(0, 0), bounds.size() * scale));
    painter.end();
    const StripGeometry g = zoomed.panelGeometry(bounds, options.style, 0);
    const QRectF cells = g.cellArea();
    QVERIFY(cells.width() > 0 && cells.height() > 0);
    // Outside the cell area's sides, over the rows' height, only white, labels' ink and grey axes.
    const auto coloured = [](QRgb c) {
        return std::max({qRed(c), qGreen(c), qBlue(c)}) - std::min({qRed(c), qGreen(c), qBlue(c)}) > 40;
    };
    int inside = 0;
    int outside = 0;
    for (int y = int(cells.top() * scale) + 2; y < int(cells.bottom() * scale) - 2; ++y)
        for (int x = 0; x < image.width(); ++x) {
            const bool in = x > cells.left() * scale + 1 && x < cells.right() * scale - 1;
            const bool out = x < cells.left() * scale - 2 || x > cells.right() * scale + 2;
            if (coloured(image.pixel(x, y)))
                (in ? inside : out ? outside : inside) += 1;
        }
    QVERIFY(inside > 0);
    QCOMPARE(outside, 0);
}

void FiguresTest::pdfHasMediaBoxAndEmbeddedFonts()
{
    FigureWriter::Options options;
    options.sizeInches = {3.25, 2.2};
    const QString file = path(QStringLiteral("strip.pdf"));
    QCOMPARE(FigureWriter::write(*m_figure, file, options), QString());
    QFile pdf(file);
    QVERIFY(pdf.open(QIODevice::ReadOnly));
    const QByteArray bytes = pdf.readAll();
    QVERIFY(bytes.startsWith("%PDF-"));
    const QRegularExpressionMatch box =
        QRegularExpression(QStringLiteral("/MediaBox \\[0 0 ([0-9.]+) ([0-9.]+)\\]")).match(QString::fromLatin1(bytes));
    QVERIFY(box.hasMatch());
    QCOMPARE(box.captured(1).toDouble(), 234.0); // 3.25 in
    QCOMPARE(box.captured(2).toDouble(), 158.0); // 2.2 in, to the nearest point (Qt's pages are whole points)
    QVERIFY2(bytes.contains("/FontFile2"), "a TrueType font program is embedded");
    const QString pdffonts = QStandardPaths::findExecutable(QStringLiteral("pdffonts"));
    if (pdffonts.isEmpty())
        return;
    QProcess process;
    process.start(pdffonts, {file});
    QVERIFY(process.waitForFinished(30000));
    const QStringList lines = QString::fromUtf8(process.readAllStandardOutput()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY(lines.size() >= 3); // a header, a rule, a font at least
    for (const QString &line : lines.mid(2))
        QVERIFY2(line.contains(QStringLiteral(" yes ")), qPrintable(QStringLiteral("not embedded: ") + line));
}

void FiguresTest::pngHasPixelsForSizeAndDpi_data()
{
    QTest::addColumn<double>("width");
    QTest::addColumn<double>("height");
    QTest::addColumn<int>("dpi");
    QTest::newRow("double column, 300 dpi") << 6.75 << 2.5 << 300;
    QTest::newRow("single column, 150 dpi") << 3.25 << 2.2 << 150;
    QTest::newRow("slide, 96 dpi") << 10.0 << 5.625 << 96;
}

void FiguresTest::pngHasPixelsForSizeAndDpi()
{
    QFETCH(double, width);
    QFETCH(double, height);
    QFETCH(int, dpi);
    FigureWriter::Options options;
    options.sizeInches = {width, height};
    options.dpi = dpi;
    const QString file = path(QStringLiteral("strip.png"));
    QCOMPARE(FigureWriter::write(*m_figure, file, options), QString());
    const QImage image(file);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), QSize(qRound(width * dpi), qRound(height * dpi)));
    QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), dpi);
}

void FiguresTest::stripMatchesReference()
{
    FigureWriter::Options options;
    options.sizeInches = {3.25, 2.2};
    options.dpi = 100;
    const QString reference = QStringLiteral(REMATLENS_TEST_DATA "/figures/strip-demo.png");
    if (qEnvironmentVariableIsSet("REMATLENS_UPDATE_FIGURES"))
        QCOMPARE(FigureWriter::write(*m_figure, reference, options), QString());
    const QString file = path(QStringLiteral("strip-demo.png"));
    QCOMPARE(FigureWriter::write(*m_figure, file, options), QString());
    const QImage expected(reference);
    const QImage actual(file);
    QVERIFY2(!expected.isNull(), qPrintable(reference + QStringLiteral(" is missing")));
    QCOMPARE(actual.size(), expected.size());
    const double difference = meanAbsoluteDifference(actual, expected);
    QVERIFY2(difference <= kReferenceTolerance, qPrintable(QStringLiteral("mean absolute difference %1 (allowed %2); "
                                                                          "the figure written is %3")
                                                               .arg(difference).arg(kReferenceTolerance).arg(file)));
    // The tolerance tells figures apart: the greyscale palette is far from the reference.
    options.style.palette = FigureStyle::Palette::GreyscaleSafe;
    QCOMPARE(FigureWriter::write(*m_figure, file, options), QString());
    QVERIFY(meanAbsoluteDifference(QImage(file), expected) > 2 * kReferenceTolerance);
}

void FiguresTest::palettesChangeColours()
{
    FigureStyle grey;
    grey.palette = FigureStyle::Palette::GreyscaleSafe;
    FigureStyle colourBlind;
    colourBlind.palette = FigureStyle::Palette::ColourBlindSafe;
    const FigureStyle standard;
    for (Outcome o : {Outcome::Pass, Outcome::OutOfMemory, Outcome::Thrash, Outcome::Timeout}) {
        const QColor c = grey.outcome(o);
        QCOMPARE(c.red(), c.green());
        QCOMPARE(c.green(), c.blue());
        QVERIFY(colourBlind.outcome(o) != standard.outcome(o));
    }
    // Greyscale outcomes differ in lightness, so pass and failure stay apart on paper.
    QVERIFY(std::abs(grey.outcome(Outcome::Pass).lightness() - grey.outcome(Outcome::OutOfMemory).lightness()) > 100);
    QVERIFY(grey.policyLine(0) != grey.policyLine(1)); // curves told apart by dashes in grey
}

void FiguresTest::csvHasARowPerRun()
{
    const QStringList lines = m_figure->figureCsv().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.first(), QStringLiteral("trace,policy,ratio,budget_bytes,outcome,overhead,in_hole"));
    QCOMPARE(lines.size(), 1 + 2 * 91); // two policies, 0.10 to 1.00 by 0.01
    QCOMPARE(lines[1].section(QLatin1Char(','), 0, 2), QStringLiteral("demo,DTR,0.10"));
    QVERIFY(lines.filter(QRegularExpression(QStringLiteral(",1$"))).size() >= 2); // the holes of DTR and LRU
    for (const QString &line : lines.filter(QRegularExpression(QStringLiteral(",1$"))))
        QVERIFY2(line.section(QLatin1Char(','), 4, 4) != u"pass", qPrintable(line));
}

void FiguresTest::smallMultiplesFormAGrid()
{
    const std::vector<StripFigure::Panel> one = m_demo.panels();
    const FigureStyle style;
    const StripFigure eight(std::vector<StripFigure::Panel>(8, one.front()));
    QCOMPARE(eight.gridColumns(6.75 * 72, style), 4); // the 2 x 4 grid of the DTR paper
    QCOMPARE(eight.gridRows(6.75 * 72, style), 2);
    QCOMPARE(eight.gridColumns(3.25 * 72, style), 2);
    const StripFigure five(std::vector<StripFigure::Panel>(5, one.front()));
    QCOMPARE(five.gridColumns(6.75 * 72, style), 3); // rows of 3 and 2, not 4 and 1
    // Panels of one row share their cells' top and height.
    const QRectF bounds(0, 0, 486, 288);
    const StripGeometry first = eight.panelGeometry(bounds, style, 0);
    const StripGeometry fourth = eight.panelGeometry(bounds, style, 3);
    QCOMPARE(first.cellArea().top(), fourth.cellArea().top());
    QVERIFY(std::abs(first.cellArea().width() - fourth.cellArea().width()) < 1e-6);
    QVERIFY(fourth.cellArea().right() <= bounds.right());
    QVERIFY(eight.panelGeometry(bounds, style, 4).cellArea().top() > first.cellArea().bottom());
}

void FiguresTest::commandLineWritesEveryFormat_data()
{
    QTest::addColumn<QString>("suffix");
    QTest::newRow("svg") << QStringLiteral("svg");
    QTest::newRow("pdf") << QStringLiteral("pdf");
    QTest::newRow("png") << QStringLiteral("png");
}

void FiguresTest::commandLineWritesEveryFormat()
{
    QFETCH(QString, suffix);
    const QString out = path(QStringLiteral("cli.") + suffix);
    const QString data = path(QStringLiteral("cli-") + suffix + QStringLiteral(".csv"));
    const QStringList arguments{QStringLiteral("figure"), QStringLiteral("strip"), repoFile("traces/demo.log"),
                                QStringLiteral("--trace"), repoFile("traces/unet.log"),
                                QStringLiteral("--from"), QStringLiteral("0.2"), QStringLiteral("--to"),
                                QStringLiteral("1.0"), QStringLiteral("--step"), QStringLiteral("0.05"),
                                QStringLiteral("--policy"), QStringLiteral("DTR"), QStringLiteral("--size"),
                                QStringLiteral("5x3"), QStringLiteral("--dpi"), QStringLiteral("120"),
                                QStringLiteral("--palette"), QStringLiteral("colour-blind"), QStringLiteral("--out"),
                                out, QStringLiteral("--data"), data};
    QCOMPARE(runRematlens(arguments), 0);
    // Each format carries the provenance, with the traces' SHA-256, in its own metadata.
    const QByteArray demoHash = sha256Of(repoFile("traces/demo.log"));
    const QByteArray unetHash = sha256Of(repoFile("traces/unet.log"));
    QByteArray provenance;
    if (suffix == u"svg") {
        QCOMPARE(readSvg(out).viewBox, QStringLiteral("0 0 360 216"));
        QXmlStreamReader xml(fileContent(out));
        while (!xml.atEnd())
            if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == u"provenance"
                && xml.namespaceUri() == u"https://github.com/rematlens")
                provenance = xml.readElementText().toUtf8();
        QVERIFY(!xml.hasError());
    }
    if (suffix == u"png") {
        const QImage image(out);
        QCOMPARE(image.size(), QSize(600, 360));
        provenance = image.text(QStringLiteral("provenance")).toUtf8();
    }
    if (suffix == u"pdf") {
        const QByteArray pdf = fileContent(out);
        QVERIFY(pdf.contains("/MediaBox [0 0 360"));
        const qsizetype start = pdf.indexOf("<rematlens:provenance>");
        const qsizetype end = pdf.indexOf("</rematlens:provenance>");
        QVERIFY2(start >= 0 && end > start, "the PDF's XMP packet has no provenance");
        provenance = QByteArray(pdf.mid(start + 22, end - start - 22)).replace("&quot;", "\"");
    }
    const QJsonObject fields = QJsonDocument::fromJson(provenance).object();
    QCOMPARE(fields.value(QStringLiteral("trace_sha256")).toArray(),
             QJsonArray({QString::fromLatin1(demoHash), QString::fromLatin1(unetHash)}));
    QCOMPARE(fields.value(QStringLiteral("figure")).toString(), QStringLiteral("strip"));

    const QList<QByteArray> csv = fileContent(data).split('\n');
    QVERIFY(csv.first().startsWith("# provenance {"));
    QVERIFY(csv.first().contains(demoHash));
    QCOMPARE(fileContent(data).count('\n'), 2 + 2 * 17); // provenance, columns, two traces of 17 budgets
}

void FiguresTest::commandLineRejectsBadOptions()
{
    const QString demo = repoFile("traces/demo.log");
    const QString out = path(QStringLiteral("bad.png"));
    QCOMPARE(runRematlens({QStringLiteral("figure"), QStringLiteral("strip"), demo, QStringLiteral("--out"),
                           path(QStringLiteral("bad.jpg"))}), 2);
    QCOMPARE(runRematlens({QStringLiteral("figure"), QStringLiteral("strip"), demo, QStringLiteral("--out"), out,
                           QStringLiteral("--size"), QStringLiteral("wide")}), 2);
    QCOMPARE(runRematlens({QStringLiteral("figure"), QStringLiteral("strip"), demo, QStringLiteral("--out"), out,
                           QStringLiteral("--palette"), QStringLiteral("neon")}), 2);
    QCOMPARE(runRematlens({QStringLiteral("figure"), QStringLiteral("strip"), path(QStringLiteral("missing.log")),
                           QStringLiteral("--out"), out}), 1);
    QCOMPARE(runRematlens({QStringLiteral("figure"), QStringLiteral("strip"), demo, QStringLiteral("--out"),
                           path(QStringLiteral("no/such/dir/x.png")), QStringLiteral("--step"), QStringLiteral("0.1")}),
             1);
    QVERIFY(!QFile::exists(out));
}

// Each kind of figure (and the timeline's variants) at each size: the command line's presets,
// whose heights suit the kind, and the export dialog's, which give every view the same height.
void FiguresTest::everyFigureKeepsItsTextsWhole_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("size");
    const auto words = [](const char *text) { return QString::fromLatin1(text).split(QLatin1Char(' ')); };
    const std::pair<const char *, QStringList> kinds[] = {
        {"strip", words("strip :demo --from 0.1 --to 1.0 --step 0.01 --policy DTR --policy LRU")},
        {"strips of three traces",
         QStringList{QStringLiteral("strip"), repoFile("traces/demo.log"), repoFile("traces/unet.log"),
                     repoFile("traces/lstm.log")} + words("--from 0.1 --to 1.0 --step 0.05")},
        {"timeline", words("timeline :demo --ratio 0.335")},
        {"timeline over a second budget", words("timeline :demo --ratio 0.335 --compare-ratio 0.34")},
        {"timeline on the clock, caching", words("timeline :demo --ratio 0.3 --allocator caching --x clock")},
        // Some 1,800 steps: four-digit step labels, as a public trace has.
        {"timeline of 1,800 steps", words("timeline chain-225.log --ratio 0.5")},
        {"cascade", words("cascade :demo --ratio 0.335")},
        {"memory map", words("memory-map :demo --ratio 0.3 --allocator caching")},
        {"hole anatomy", words("hole-anatomy :demo --ratio 0.335")},
    };
    const QStringList sizes{QStringLiteral("single"),   QStringLiteral("double"),   QStringLiteral("slide"),
                            QStringLiteral("3.25x2.2"), QStringLiteral("6.75x2.5"), QStringLiteral("3.25x2.5")};
    for (const auto &[name, arguments] : kinds)
        for (const QString &size : sizes)
            QTest::addRow("%s, %s", name, qPrintable(size)) << arguments << size;
}

void FiguresTest::everyFigureKeepsItsTextsWhole()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, size);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    if (arguments.contains(QStringLiteral("chain-225.log"))) {
        const QString trace = dir.filePath(QStringLiteral("chain-225.log"));
        QCOMPARE(runRematlens({QStringLiteral("synth"), QStringLiteral("--preset"), QStringLiteral("chain"),
                               QStringLiteral("--layers"), QStringLiteral("225"), QStringLiteral("--out"), trace}),
                 0);
        arguments.replace(arguments.indexOf(QStringLiteral("chain-225.log")), trace);
    }
    const QString out = dir.filePath(QStringLiteral("figure.svg"));
    QCOMPARE(runRematlens(QStringList{QStringLiteral("figure")} + arguments +
                          QStringList{QStringLiteral("--size"), size, QStringLiteral("--out"), out}),
             0);
    const QStringList texts = svgTexts(out);
    QVERIFY2(texts.size() >= 5, qPrintable(texts.join(QStringLiteral(" | "))));
    const QStringList cut = cutTexts(texts);
    QVERIFY2(cut.isEmpty(), qPrintable(QStringLiteral("%1 of %2 texts cut: %3")
                                           .arg(cut.size())
                                           .arg(texts.size())
                                           .arg(cut.join(QStringLiteral(", ")))));
}

void FiguresTest::sweepFileDrawsTheSameRuns()
{
    const QString demo = repoFile("traces/demo.log");
    const QStringList grid{QStringLiteral("--from"), QStringLiteral("0.30"), QStringLiteral("--to"),
                           QStringLiteral("0.40"), QStringLiteral("--step"), QStringLiteral("0.01"),
                           QStringLiteral("--policy"), QStringLiteral("DTR"), QStringLiteral("--policy"),
                           QStringLiteral("LRU")};
    for (const QString &format : {QStringLiteral("jsonl"), QStringLiteral("csv")}) {
        const QString sweep = path(QStringLiteral("sweep.") + format);
        QCOMPARE(runRematlens(QStringList{QStringLiteral("sweep"), demo, QStringLiteral("--out"), sweep} + grid), 0);
        const QString fromFile = path(QStringLiteral("from-file-") + format + QStringLiteral(".csv"));
        QCOMPARE(runRematlens({QStringLiteral("figure"), QStringLiteral("strip"), QStringLiteral("--sweep-file"), sweep,
                               QStringLiteral("--out"), path(QStringLiteral("from-file.svg")), QStringLiteral("--data"),
                               fromFile}),
                 0);
        const QString swept = path(QStringLiteral("swept.csv"));
        QCOMPARE(runRematlens(QStringList{QStringLiteral("figure"), QStringLiteral("strip"), demo, QStringLiteral("--out"),
                                          path(QStringLiteral("swept.svg")), QStringLiteral("--data"), swept} + grid),
                 0);
        // The same rows; the provenance lines differ (one read a file, the other swept).
        const auto rows = [](const QString &csv) { return fileContent(csv).split('\n').mid(1); };
        QCOMPARE(rows(fromFile), rows(swept));
        QVERIFY(fileContent(fromFile).split('\n').first().contains("\"sweep_files\""));
    }
}

void FiguresTest::stripWidgetIsTheSameFigure()
{
    const StripFigure::Panel panel = m_demo.panels().front();
    FeasibilityStrip strip;
    strip.setModels(panel.sweep, panel.holes);
    strip.setTraceName(panel.title);
    QCOMPARE(strip.figureTitle(), QStringLiteral("strip-demo"));
    QCOMPARE(strip.figureCsv(), m_figure->figureCsv());
    FigureWriter::Options options;
    options.sizeInches = {3.25, 2.2};
    options.dpi = 100;
    options.style.palette = FigureStyle::Palette::ColourBlindSafe;
    QCOMPARE(FigureWriter::write(strip, path(QStringLiteral("widget.png")), options), QString());
    QCOMPARE(FigureWriter::write(*m_figure, path(QStringLiteral("figure.png")), options), QString());
    QCOMPARE(QImage(path(QStringLiteral("widget.png"))), QImage(path(QStringLiteral("figure.png"))));
    // On screen the same painter draws at the widget's font size.
    strip.resize(900, 320);
    QVERIFY(strip.cellGeometry().cellArea().width() > 600);
    QVERIFY(!strip.grab().toImage().isNull());
}

void FiguresTest::exportDialogPreviewsAndWrites()
{
    FigureExportChoices choices;
    choices.view = QStringLiteral("Feasibility strip");
    choices.size = QStringLiteral("double");
    choices.writeCsv = true;
    ExportFigureDialog dialog({FigureView{QStringLiteral("Feasibility strip"), m_figure.get()}}, choices);
    dialog.resize(1000, 460);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QCOMPARE(dialog.writerOptions().sizeInches, QSizeF(6.75, 2.5));
    QCOMPARE(dialog.currentSource(), m_figure.get());
    // The preview keeps the figure's aspect ratio.
    const QRectF page = dialog.preview()->pageRect();
    QVERIFY(std::abs(page.width() / page.height() - 6.75 / 2.5) < 0.01);
    const QImage grabbed = dialog.grab().toImage();
    QVERIFY(!grabbed.isNull());
    const QString shots = qEnvironmentVariable("REMATLENS_FIGURE_SHOTS"); // for a look by eye
    if (!shots.isEmpty())
        grabbed.save(QDir(shots).filePath(QStringLiteral("export-dialog.png")));
    const QString pdf = path(QStringLiteral("dialog.pdf"));
    QCOMPARE(dialog.exportTo(pdf), QString());
    QVERIFY(QFile::exists(pdf));
    QVERIFY(QFile::exists(path(QStringLiteral("dialog.csv"))));
    QCOMPARE(dialog.choices().lastPath, pdf);
    // A slide suggests slide-sized text; the preview follows.
    auto *size = dialog.findChild<QComboBox *>(QStringLiteral("size"));
    auto *fontSize = dialog.findChild<QDoubleSpinBox *>(QStringLiteral("fontSize"));
    QVERIFY(size && fontSize);
    size->setCurrentIndex(size->findData(QStringLiteral("slide")));
    QCOMPARE(fontSize->value(), 14.0);
    QCOMPARE(dialog.writerOptions().sizeInches, QSizeF(10, 5.625));
    QVERIFY(std::abs(dialog.preview()->pageRect().width() / dialog.preview()->pageRect().height() - 16.0 / 9) < 0.01);
    const QString failure = dialog.exportTo(path(QStringLiteral("no/such/dir/x.svg")));
    QVERIFY2(failure.contains(QStringLiteral("x.svg")), qPrintable(failure)); // the error names the file
}

void FiguresTest::mainWindowOffersTheStrip()
{
    MainWindow window;
    QVERIFY(!window.figureViews().empty());
    QCOMPARE(window.figureViews().front().name, QStringLiteral("Feasibility strip"));
}

QTEST_MAIN(FiguresTest)
#include "tst_figures.moc"
