#pragma once

#include <QString>

namespace rematlens {

// A moment of a hole's story drawn on the anatomy figure's timelines: a model step, what
// happens there, and which of the edge's two runs it belongs to.
struct AnatomyMoment {
    enum class Run { Both, Passing, Failing };

    double step = 0;
    QString label; // "avoided eviction: x5551 kept"
    Run run = Run::Both;
};

} // namespace rematlens
