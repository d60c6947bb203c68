#pragma once

#include <QLocale>
#include <QString>

namespace rematlens {

// Numbers as the views show them: "8,415,764,640", whatever the user's locale (figures and
// screenshots must read the same everywhere).
inline QLocale numberLocale()
{
    QLocale c = QLocale::c();
    c.setNumberOptions(QLocale::DefaultNumberOptions); // the C locale omits group separators
    return c;
}

// "1 hole", "3 holes": a count with its noun, in numberLocale() digits.
inline QString countOf(qint64 count, const QString &singular, const QString &plural)
{
    return numberLocale().toString(count) + QLatin1Char(' ') + (count == 1 ? singular : plural);
}

} // namespace rematlens
