#pragma once

#include "figure_export_choices.h"

#include "views/figure/figure_source.h"
#include "views/figure/figure_writer.h"

#include <QDialog>

#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace rematlens {

class FigurePreview;

// A view the window can export as a figure: its name in the dialog and its drawing.
struct FigureView {
    QString name;
    const FigureSource *source = nullptr;
};

// File > Export Figure: which view, the size (paper columns, slide or custom), font size,
// palette and PNG resolution, with a live preview; the format follows the file's suffix.
class ExportFigureDialog : public QDialog {
    Q_OBJECT

public:
    ExportFigureDialog(std::vector<FigureView> views, const FigureExportChoices &choices, QWidget *parent = nullptr);

    FigureExportChoices choices() const;
    FigureWriter::Options writerOptions() const;
    const FigureSource *currentSource() const;
    FigurePreview *preview() const { return m_preview; }
    // Writes the figure (and the CSV beside it when asked); an error message or nothing.
    QString exportTo(const QString &path);
    // "strip-unet.csv" beside "strip-unet.pdf".
    static QString csvPathFor(const QString &figurePath);

private:
    void chooseFileAndExport();
    void updatePreview();
    void applyChoices(const FigureExportChoices &choices);
    void suggestFontSize();
    QSizeF sizeInches() const;
    void showError(const QString &message);

    static constexpr double kPaperFontSize = 8;
    static constexpr double kSlideFontSize = 14;

    std::vector<FigureView> m_views;
    QComboBox *m_view;
    QComboBox *m_size;
    QDoubleSpinBox *m_width;
    QDoubleSpinBox *m_height;
    QDoubleSpinBox *m_fontSize;
    QComboBox *m_palette;
    QSpinBox *m_dpi;
    QCheckBox *m_writeCsv;
    QLabel *m_sizeNote;
    FigurePreview *m_preview;
    QString m_lastPath;
};

} // namespace rematlens
