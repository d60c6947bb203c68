#pragma once

#include <QString>
#include <QStringList>

namespace rematlens {

// What the sweep controls ask for, as the user typed it (decimals stay text so that 0.419
// means the double nearest 0.419).
struct SweepParameters {
    QStringList policies{QStringLiteral("DTR")};
    QString runtime = QStringLiteral("eager");
    QString from = QStringLiteral("0.1");
    QString to = QStringLiteral("1.0");
    QString step = QStringLiteral("0.01");
    QString overheadLimit = QStringLiteral("2.0");
    int threads = 0; // every core
};

} // namespace rematlens
