#pragma once

#include "session_state.h"

#include <QString>

#include <optional>

namespace rematlens {

// A session as a .rematlens file: one JSON object with a format version. Reading checks every
// field's type and names the file and the field at fault; a file of a newer format is refused.
class SessionFile {
public:
    static constexpr const char *kExtension = ".rematlens";

    static bool write(const SessionState &state, const QString &path, QString &error);
    static std::optional<SessionState> read(const QString &path, QString &error);

    // Why the session's trace cannot be opened as it was (missing, or its content changed), or
    // empty when it is there with the same SHA-256. `tracePath` overrides the recorded path
    // (the user located the file elsewhere).
    static QString traceProblem(const SessionState &state, const QString &tracePath);
};

} // namespace rematlens
