#pragma once

#include <QString>

namespace rematlens {

// SHA-256 of a trace's bytes (of the embedded demo for ":demo"), in hex; empty when the file
// cannot be read. What identifies a trace whatever its name: the sweep cache and sessions use it.
QString traceContentHash(const QString &pathOrDemo);

} // namespace rematlens
