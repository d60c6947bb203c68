#pragma once

#include <QString>

#include <cstdint>
#include <optional>

namespace rematlens {

// A strip row's policy as the window names it: a policy spec, and for a random policy an
// optional ":seed=N", that row's seed (simrd's --seed), so that draws of the random choices are
// rows side by side ("RandomStorage", "RandomStorage:seed=1", "RandomStorage:seed=2"). The row's
// records and identity keep the policy's own name and carry the seed, as `map --seed N` does.
struct SeededPolicy {
    QString spec;      // what parsePolicySpec reads
    std::uint64_t seed = 0;
    bool seeded = false; // ":seed=N" was given

    // The text split at a trailing ":seed=N"; nullopt, with the reason, when N is not a number.
    static std::optional<SeededPolicy> parse(const QString &text, QString &error);
};

} // namespace rematlens
