#pragma once

#include <QString>

namespace rematlens {

// What the export dialog was last set to, remembered between sessions.
struct FigureExportChoices {
    QString view;                                // the figure's name in the window's list
    QString size = QStringLiteral("double");     // single, double, slide or custom
    double widthInches = 6.75;                   // custom only
    double heightInches = 2.5;                   // custom only
    double fontSize = 8;                         // points
    QString palette = QStringLiteral("default"); // default, colour-blind or greyscale
    int dpi = 300;                               // PNG only
    bool writeCsv = false;
    QString lastPath;                            // the last file written
};

} // namespace rematlens
