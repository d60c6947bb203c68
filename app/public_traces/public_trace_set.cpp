#include "app/public_traces/public_trace_set.h"

#include "app/formats/trace_source.h"

#include <QCryptographicHash>
#include <QFile>
#include <QList>
#include <QRegularExpression>
#include <QStandardPaths>

#include <cstdio>
#include <cstdlib>

namespace rematlens {

namespace {

const QString kSourcePrefix = QStringLiteral("# source: ");

} // namespace

const PublicTraceSet &PublicTraceSet::dtr2020()
{
    static const PublicTraceSet set = [] {
        registerEmbeddedResources();
        QFile file(QStringLiteral(":/traces/dtr-2020.sha256"));
        QString error = QStringLiteral("it is missing from this build");
        PublicTraceSet parsed;
        if (file.open(QIODevice::ReadOnly))
            parsed = parse(file.readAll(), error);
        if (!error.isEmpty()) {
            std::fprintf(stderr, "rematlens: the embedded list of public traces is broken: %s\n", qPrintable(error));
            std::abort();
        }
        return parsed;
    }();
    return set;
}

PublicTraceSet PublicTraceSet::parse(const QByteArray &text, QString &error)
{
    static const QRegularExpression checksumLine(QStringLiteral("^([0-9a-f]{64})  ([^/\\\\]+)$"));
    PublicTraceSet set;
    error.clear();
    const QList<QByteArray> lines = text.split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString line = QString::fromUtf8(lines[i]).trimmed();
        if (line.startsWith(kSourcePrefix)) {
            set.m_publishedUrl = line.mid(kSourcePrefix.size());
        } else if (!line.isEmpty() && !line.startsWith(QLatin1Char('#'))) {
            const QRegularExpressionMatch match = checksumLine.match(line);
            if (!match.hasMatch()) {
                error = QStringLiteral("line %1: expected a SHA-256 in lowercase hex, two spaces and a file name").arg(i + 1);
                return {};
            }
            set.m_traces.push_back(PublicTrace{match.captured(2), match.captured(1).toLatin1()});
        }
    }
    if (set.m_publishedUrl.isEmpty())
        error = QStringLiteral("no \"# source: URL\" line");
    else if (set.m_traces.empty())
        error = QStringLiteral("no traces listed");
    return error.isEmpty() ? set : PublicTraceSet{};
}

QString PublicTraceSet::archiveUrl() const
{
    const QString overridden = qEnvironmentVariable("REMATLENS_TRACES_URL");
    return overridden.isEmpty() ? m_publishedUrl : overridden;
}

QString PublicTraceSet::defaultDirectory()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
           + QStringLiteral("/RematLens/traces/dtr-2020");
}

PublicTraceState PublicTraceSet::stateIn(const QString &directory, const PublicTrace &trace)
{
    QFile file(directory + QLatin1Char('/') + trace.fileName);
    if (!file.open(QIODevice::ReadOnly))
        return PublicTraceState::Missing;
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&file);
    return hash.result().toHex() == trace.sha256 ? PublicTraceState::Verified : PublicTraceState::Altered;
}

QByteArray PublicTraceSet::sha256Of(const QByteArray &content)
{
    return QCryptographicHash::hash(content, QCryptographicHash::Sha256).toHex();
}

} // namespace rematlens
