#include "views/strip/outcome_palette.h"

#include <QCoreApplication>

namespace rematlens {

QColor OutcomePalette::outcome(Outcome outcome)
{
    switch (outcome) {
    case Outcome::Pass: return QColor(0x00, 0x9E, 0x73);        // bluish green
    case Outcome::OutOfMemory: return QColor(0xD5, 0x5E, 0x00); // vermillion
    case Outcome::Thrash: return QColor(0xE6, 0x9F, 0x00);      // orange
    case Outcome::Timeout: return QColor(0xCC, 0x79, 0xA7);     // reddish purple
    case Outcome::Cancelled: return notRun();
    case Outcome::Impossible: return QColor(0x55, 0x55, 0x55); // dark grey: no schedule fits
    }
    return notRun();
}

QColor OutcomePalette::notRun()
{
    return QColor(0xDD, 0xDD, 0xDD);
}

QColor OutcomePalette::policy(int index)
{
    static const QColor colours[] = {QColor(0x00, 0x72, 0xB2), QColor(0x00, 0x00, 0x00), QColor(0x56, 0xB4, 0xE9),
                                     QColor(0xCC, 0x79, 0xA7), QColor(0xF0, 0xE4, 0x42), QColor(0x99, 0x99, 0x99)};
    return colours[index % 6];
}

QColor OutcomePalette::hole()
{
    return QColor(0x20, 0x20, 0x20);
}

QColor OutcomePalette::selection()
{
    return QColor(0x00, 0x00, 0x00);
}

QString OutcomePalette::outcomeLabel(Outcome outcome)
{
    switch (outcome) {
    case Outcome::Pass: return QCoreApplication::translate("OutcomePalette", "pass");
    case Outcome::OutOfMemory: return QCoreApplication::translate("OutcomePalette", "out of memory");
    case Outcome::Thrash: return QCoreApplication::translate("OutcomePalette", "over the compute limit");
    case Outcome::Timeout: return QCoreApplication::translate("OutcomePalette", "timeout");
    case Outcome::Cancelled: return QCoreApplication::translate("OutcomePalette", "not run");
    case Outcome::Impossible:
        return QCoreApplication::translate("OutcomePalette", "impossible (below the fit floor, not replayed)");
    }
    return {};
}

} // namespace rematlens
