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

} // namespace rematlens
