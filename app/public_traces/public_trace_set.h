#pragma once

#include <QByteArray>
#include <QString>

#include <vector>

namespace rematlens {

// One published trace: its file name and the SHA-256 of its content, in lowercase hex.
struct PublicTrace {
    QString fileName;
    QByteArray sha256;
};

// What a directory holds of one published trace.
enum class PublicTraceState { Verified, Missing, Altered };

// The eight public DTR traces as traces/dtr-2020.sha256 lists them (embedded in the program):
// where their archive is published, each trace's checksum, and the one directory where
// `rematlens traces download` installs them and the GUI's open dialog looks first.
class PublicTraceSet {
public:
    // The embedded list; the program cannot run without it, so a build that lost it stops here.
    static const PublicTraceSet &dtr2020();

    // Parses a list in sha256sum's format with a "# source: URL" line; an error names the line.
    static PublicTraceSet parse(const QByteArray &text, QString &error);

    // The published archive, or REMATLENS_TRACES_URL when set (a mirror, a file:// copy), as the
    // download script does.
    QString archiveUrl() const;
    const std::vector<PublicTrace> &traces() const { return m_traces; }

    // ${XDG_DATA_HOME:-~/.local/share}/RematLens/traces/dtr-2020
    static QString defaultDirectory();

    static PublicTraceState stateIn(const QString &directory, const PublicTrace &trace);
    static QByteArray sha256Of(const QByteArray &content);

private:
    QString m_publishedUrl;
    std::vector<PublicTrace> m_traces;
};

} // namespace rematlens
