#include "export_figure_dialog.h"

#include "screen_fit.h"

#include "app/requests/loaded_trace.h"
#include "app/requests/request_reporter.h"
#include "app/requests/request_settings.h"
#include "views/figure/figure_preview.h"
#include "views/figure/figure_sizes.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QSpinBox>
#include <QVBoxLayout>

namespace rematlens {

namespace {

FigureStyle::Palette paletteNamed(const QString &name)
{
    if (name == u"colour-blind")
        return FigureStyle::Palette::ColourBlindSafe;
    if (name == u"greyscale")
        return FigureStyle::Palette::GreyscaleSafe;
    return FigureStyle::Palette::Default;
}

} // namespace

ExportFigureDialog::ExportFigureDialog(std::vector<FigureView> views, const FigureExportChoices &choices, QWidget *parent)
    : QDialog(parent)
    , m_views(std::move(views))
    , m_view(new QComboBox(this))
    , m_size(new QComboBox(this))
    , m_width(new QDoubleSpinBox(this))
    , m_height(new QDoubleSpinBox(this))
    , m_fontSize(new QDoubleSpinBox(this))
    , m_palette(new QComboBox(this))
    , m_dpi(new QSpinBox(this))
    , m_writeCsv(new QCheckBox(tr("Also write the data as CSV beside it"), this))
    , m_sizeNote(new QLabel(this))
    , m_preview(new FigurePreview(this))
{
    setWindowTitle(tr("Export Figure"));
    m_size->setObjectName(QStringLiteral("size"));
    m_fontSize->setObjectName(QStringLiteral("fontSize"));
    for (const FigureView &view : m_views)
        m_view->addItem(view.name);
    m_view->setToolTip(tr("The view to draw; the figure uses the same drawing as the window"));
    m_size->addItem(tr("Single column (3.25 in wide)"), QStringLiteral("single"));
    m_size->addItem(tr("Double column (6.75 in wide)"), QStringLiteral("double"));
    m_size->addItem(tr("Slide 16:9 (10 × 5.625 in)"), QStringLiteral("slide"));
    m_size->addItem(tr("Custom"), QStringLiteral("custom"));
    m_size->setToolTip(tr("Widths of a two-column paper's column and page, or a 16:9 slide"));
    for (QDoubleSpinBox *box : {m_width, m_height}) {
        box->setRange(0.5, 40);
        box->setDecimals(2);
        box->setSingleStep(0.25);
        box->setSuffix(tr(" in"));
    }
    m_width->setToolTip(tr("Figure width in inches (custom size)"));
    m_height->setToolTip(tr("Figure height in inches (custom size)"));
    m_fontSize->setRange(4, 36);
    m_fontSize->setDecimals(1);
    m_fontSize->setSuffix(tr(" pt"));
    m_fontSize->setToolTip(tr("Text size in the figure, in points: 8 pt matches most papers' figure text"));
    m_palette->addItem(tr("Default"), QStringLiteral("default"));
    m_palette->addItem(tr("Colour-blind safe"), QStringLiteral("colour-blind"));
    m_palette->addItem(tr("Greyscale safe"), QStringLiteral("greyscale"));
    m_palette->setToolTip(tr("Colours of outcomes and policies; greyscale-safe survives black-and-white printing"));
    m_dpi->setRange(72, 1200);
    m_dpi->setSingleStep(50);
    m_dpi->setSuffix(tr(" dpi"));
    m_dpi->setToolTip(tr("Resolution of a PNG; SVG and PDF are vector and ignore it"));
    m_writeCsv->setToolTip(tr("The numbers behind the figure, one row per run, in a .csv file of the same name"));

    auto *form = new QFormLayout;
    form->addRow(tr("&View:"), m_view);
    form->addRow(tr("&Size:"), m_size);
    auto *custom = new QHBoxLayout;
    custom->addWidget(m_width);
    custom->addWidget(new QLabel(QStringLiteral("×"), this));
    custom->addWidget(m_height);
    form->addRow(tr("Width × height:"), custom);
    form->addRow(tr("&Font size:"), m_fontSize);
    form->addRow(tr("&Palette:"), m_palette);
    form->addRow(tr("PNG &resolution:"), m_dpi);
    form->addRow(m_writeCsv);
    form->addRow(m_sizeNote);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    QPushButton *exportButton = buttons->addButton(tr("&Export…"), QDialogButtonBox::AcceptRole);
    exportButton->setDefault(true);
    exportButton->setToolTip(tr("Choose the file: .svg or .pdf (vector, text kept as text) or .png"));
    connect(exportButton, &QPushButton::clicked, this, &ExportFigureDialog::chooseFileAndExport);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *controls = new QVBoxLayout;
    controls->addLayout(form);
    controls->addStretch();
    auto *top = new QHBoxLayout;
    top->addLayout(controls);
    top->addWidget(m_preview, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top, 1);
    layout->addWidget(buttons);

    applyChoices(choices);
    const auto refresh = [this] { updatePreview(); };
    connect(m_view, &QComboBox::currentIndexChanged, this, refresh);
    connect(m_size, &QComboBox::currentIndexChanged, this, &ExportFigureDialog::suggestFontSize);
    connect(m_size, &QComboBox::currentIndexChanged, this, refresh);
    connect(m_width, &QDoubleSpinBox::valueChanged, this, refresh);
    connect(m_height, &QDoubleSpinBox::valueChanged, this, refresh);
    connect(m_fontSize, &QDoubleSpinBox::valueChanged, this, refresh);
    connect(m_palette, &QComboBox::currentIndexChanged, this, refresh);
    connect(m_dpi, &QSpinBox::valueChanged, this, refresh);
    updatePreview();
    fitToScreen(this, QSize(1000, 460));
}

void ExportFigureDialog::applyChoices(const FigureExportChoices &c)
{
    if (const int view = m_view->findText(c.view); view >= 0)
        m_view->setCurrentIndex(view);
    m_size->setCurrentIndex(std::max(0, m_size->findData(c.size)));
    m_width->setValue(c.widthInches);
    m_height->setValue(c.heightInches);
    m_fontSize->setValue(c.fontSize);
    m_palette->setCurrentIndex(std::max(0, m_palette->findData(c.palette)));
    m_dpi->setValue(c.dpi);
    m_writeCsv->setChecked(c.writeCsv);
    m_lastPath = c.lastPath;
}

FigureExportChoices ExportFigureDialog::choices() const
{
    FigureExportChoices c;
    c.view = m_view->currentText();
    c.size = m_size->currentData().toString();
    c.widthInches = m_width->value();
    c.heightInches = m_height->value();
    c.fontSize = m_fontSize->value();
    c.palette = m_palette->currentData().toString();
    c.dpi = m_dpi->value();
    c.writeCsv = m_writeCsv->isChecked();
    c.lastPath = m_lastPath;
    return c;
}

// A slide is read from afar: 14 pt there, 8 pt on paper, unless the user chose another size.
void ExportFigureDialog::suggestFontSize()
{
    const bool slide = m_size->currentData().toString() == u"slide";
    if (slide && m_fontSize->value() == kPaperFontSize)
        m_fontSize->setValue(kSlideFontSize);
    else if (!slide && m_fontSize->value() == kSlideFontSize)
        m_fontSize->setValue(kPaperFontSize);
}

QSizeF ExportFigureDialog::sizeInches() const
{
    const QString size = m_size->currentData().toString();
    if (size == u"single")
        return {FigureSizes::kSingleColumnWidth, FigureSizes::kSingleColumnHeight};
    if (size == u"double")
        return {FigureSizes::kDoubleColumnWidth, FigureSizes::kDoubleColumnHeight};
    if (size == u"slide")
        return {FigureSizes::kSlideWidth, FigureSizes::kSlideHeight};
    return {m_width->value(), m_height->value()};
}

FigureWriter::Options ExportFigureDialog::writerOptions() const
{
    FigureWriter::Options options;
    options.sizeInches = sizeInches();
    options.dpi = m_dpi->value();
    options.style.fontSize = m_fontSize->value();
    options.style.palette = paletteNamed(m_palette->currentData().toString());
    return options;
}

const FigureSource *ExportFigureDialog::currentSource() const
{
    const int index = m_view->currentIndex();
    return index >= 0 && index < static_cast<int>(m_views.size()) ? m_views[static_cast<std::size_t>(index)].source
                                                                   : nullptr;
}

void ExportFigureDialog::updatePreview()
{
    const bool custom = m_size->currentData().toString() == u"custom";
    m_width->setEnabled(custom);
    m_height->setEnabled(custom);
    const FigureWriter::Options options = writerOptions();
    if (!custom) { // show what the preset stands for
        const QSignalBlocker blockWidth(m_width);
        const QSignalBlocker blockHeight(m_height);
        m_width->setValue(options.sizeInches.width());
        m_height->setValue(options.sizeInches.height());
    }
    const QSize pixels(qRound(options.sizeInches.width() * options.dpi), qRound(options.sizeInches.height() * options.dpi));
    m_sizeNote->setText(tr("PNG: %1 × %2 pixels").arg(pixels.width()).arg(pixels.height()));
    m_preview->setSource(currentSource());
    m_preview->setFigure(options.sizeInches, options.style);
}

QString ExportFigureDialog::csvPathFor(const QString &figurePath)
{
    const QFileInfo info(figurePath);
    return info.dir().filePath(info.completeBaseName() + QStringLiteral(".csv"));
}

QString ExportFigureDialog::exportTo(const QString &path)
{
    const FigureSource *source = currentSource();
    if (!source)
        return tr("There is no view to export.");
    if (const QString problem = FigureWriter::write(*source, path, writerOptions()); !problem.isEmpty())
        return problem;
    if (m_writeCsv->isChecked()) {
        const QString csvPath = csvPathFor(path);
        QSaveFile csv(csvPath);
        const QByteArray bytes = source->figureCsv().toUtf8();
        if (!csv.open(QIODevice::WriteOnly) || csv.write(bytes) != bytes.size() || !csv.commit())
            return tr("cannot write %1").arg(csvPath);
    }
    m_lastPath = path;
    return {};
}

void ExportFigureDialog::chooseFileAndExport()
{
    const FigureSource *source = currentSource();
    const QString directory = m_lastPath.isEmpty() ? QDir::homePath() : QFileInfo(m_lastPath).absolutePath();
    const QString suffix = m_lastPath.isEmpty() ? QStringLiteral("pdf") : QFileInfo(m_lastPath).suffix();
    const QString name = (source ? source->figureTitle() : QStringLiteral("figure")) + QLatin1Char('.') + suffix;
    QString path = QFileDialog::getSaveFileName(this, tr("Export Figure"), QDir(directory).filePath(name),
                                                tr("Figures (*.pdf *.svg *.png);;PDF (*.pdf);;SVG (*.svg);;PNG (*.png)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".pdf");
    if (!FigureWriter::supportedSuffix(path)) {
        showError(tr("%1: the format follows the file's suffix: .pdf, .svg or .png").arg(path));
        return;
    }
    if (const QString problem = exportTo(path); !problem.isEmpty()) {
        showError(problem);
        return;
    }
    accept();
}

void ExportFigureDialog::showError(const QString &message)
{
    if (QGuiApplication::platformName() == QLatin1String("offscreen"))
        reportError(ExitBadInput, message.toStdString()); // no one to click the dialog away
    else
        QMessageBox::critical(this, tr("Cannot export the figure"), message);
}

} // namespace rematlens
