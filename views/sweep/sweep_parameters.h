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
    // Allocator models, a strip row each per policy: "sum", "caching", "best-fit"; and how
    // eviction couples to the models other than the sum ("on-failure" or "after-op").
    QStringList allocators{QStringLiteral("sum")};
    QString eviction = QStringLiteral("on-failure");
    // Rows of static schedules under the policies: Chen et al.'s checkpointing, and Checkmate's
    // optimum with CBC's time limit per budget (seconds, as typed).
    bool checkpointing = false;
    bool optimal = false;
    QString timeLimit = QStringLiteral("2");
    bool operator==(const SweepParameters &) const = default;
};

} // namespace rematlens
