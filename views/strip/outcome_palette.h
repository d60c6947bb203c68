#pragma once

#include "core/sim/run_result.h"

#include <QColor>
#include <QString>

namespace rematlens {

// Colours for outcomes and policies, from the Okabe-Ito palette (distinguishable with the
// common colour-vision deficiencies); "not run" is a light grey.
class OutcomePalette {
public:
    static QColor outcome(Outcome outcome);
    static QColor notRun();
    static QColor policy(int index);   // for overhead curves, one per policy row
    static QColor hole();              // hole markers
    static QColor selection();
    static QString outcomeLabel(Outcome outcome); // "pass", "out of memory", ...
};

} // namespace rematlens
