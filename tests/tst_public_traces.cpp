// rematlens traces download | status: the public DTR traces fetched from a local file:// archive,
// each checked against its published SHA-256 and installed all or nothing. With ../shared present
// the archive holds the real traces, so the published checksums themselves are exercised.
#include "shared_data.h"

#include "app/public_traces/public_trace_set.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QUrl>
#include <QtTest>

#include <zip.h>

#include <utility>
#include <vector>

namespace {

using Entries = std::vector<std::pair<QString, QByteArray>>;

// Writes a deflated zip of ENTRIES (path inside the archive, content) with libzip.
bool writeZip(const QString &path, const Entries &entries)
{
    int error = 0;
    zip_t *archive = zip_open(QFile::encodeName(path).constData(), ZIP_CREATE | ZIP_TRUNCATE, &error);
    if (!archive)
        return false;
    for (const auto &[name, content] : entries) {
        zip_source_t *source = zip_source_buffer(archive, content.constData(), static_cast<zip_uint64_t>(content.size()), 0);
        if (!source || zip_file_add(archive, name.toUtf8().constData(), source, ZIP_FL_ENC_UTF_8) < 0) {
            zip_source_free(source);
            zip_discard(archive);
            return false;
        }
    }
    return zip_close(archive) == 0;
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class PublicTracesTest : public QObject {
    Q_OBJECT

private slots:
    void embeddedListMatchesThePublishedTraces();
    void downloadInstallsEveryTrace();
    void defaultDirectoryIsWhereTheGuiLooks();
    void alteredTraceInstallsNothing();
    void missingTraceInstallsNothing();
    void duplicateTraceInstallsNothing();
    void damagedArchiveInstallsNothing();
    void notAZipInstallsNothing();
    void unreachableAddressFails();
    void statusNamesMissingAndAlteredTraces();
    void tracesNeedsASubcommand();

private:
    struct Result {
        int status;
        QByteArray out;
        QByteArray err;
    };
    static Result rematlens(const QStringList &arguments, const QProcessEnvironment &environment = {});
    // The eight traces as the published archive lays them out ("logs/NAME"), with the archive's
    // other files and a macOS metadata twin that must be ignored; the real traces when ../shared
    // is present, stand-ins (which match no checksum) otherwise.
    static Entries publishedLayout();
    QString zipOf(const QString &name, const Entries &entries);
    static void verifyNothingInstalled(const Result &r, const QString &directory, const QString &culprit);

    QTemporaryDir m_dir;
};

PublicTracesTest::Result PublicTracesTest::rematlens(const QStringList &arguments, const QProcessEnvironment &environment)
{
    QProcess process;
    if (!environment.isEmpty())
        process.setProcessEnvironment(environment);
    process.start(QStringLiteral(REMATLENS_BINARY), arguments);
    if (!process.waitForFinished(120000))
        return {-1, {}, "timed out"};
    return {process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError()};
}

Entries PublicTracesTest::publishedLayout()
{
    const QString shared = sharedDirectory();
    Entries entries{{QStringLiteral("logs/"), {}}, {QStringLiteral("logs/manifest.json"), "{}\n"}};
    for (const rematlens::PublicTrace &trace : rematlens::PublicTraceSet::dtr2020().traces()) {
        const QByteArray content = shared.isEmpty() ? "stand-in for " + trace.fileName.toUtf8() + "\n"
                                                    : readFile(publicTracePath(shared, trace.fileName));
        entries.emplace_back(QStringLiteral("logs/") + trace.fileName, content);
    }
    entries.emplace_back(QStringLiteral("__MACOSX/logs/._") + entries.back().first.mid(5), "resource fork");
    return entries;
}

QString PublicTracesTest::zipOf(const QString &name, const Entries &entries)
{
    const QString path = m_dir.filePath(name);
    return writeZip(path, entries) ? path : QString();
}

void PublicTracesTest::verifyNothingInstalled(const Result &r, const QString &directory, const QString &culprit)
{
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.contains(culprit.toUtf8()), r.err.constData());
    QVERIFY2(r.err.contains("nothing was installed"), r.err.constData());
    QVERIFY2(!QFileInfo::exists(directory) || QDir(directory).entryList(QDir::Files).isEmpty(),
             qPrintable(directory + QStringLiteral(" holds files")));
}

// The list compiled into the program is the download script's, and names the traces in ../shared.
void PublicTracesTest::embeddedListMatchesThePublishedTraces()
{
    const rematlens::PublicTraceSet &set = rematlens::PublicTraceSet::dtr2020();
    QCOMPARE(set.traces().size(), std::size_t{8});
    QString error;
    const rematlens::PublicTraceSet script = rematlens::PublicTraceSet::parse(
        readFile(QStringLiteral(REMATLENS_SOURCE_DIR "/traces/dtr-2020.sha256")), error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY(qEnvironmentVariableIsEmpty("REMATLENS_TRACES_URL"));
    QCOMPARE(set.archiveUrl(), script.archiveUrl());
    QVERIFY(set.archiveUrl().startsWith(QStringLiteral("https://")));
    for (std::size_t i = 0; i < set.traces().size(); ++i) {
        QCOMPARE(set.traces()[i].fileName, script.traces()[i].fileName);
        QCOMPARE(set.traces()[i].sha256, script.traces()[i].sha256);
    }
    const QString shared = sharedDirectory();
    if (shared.isEmpty())
        QSKIP("../shared is not present: the checksums are not compared with the real traces");
    for (const rematlens::PublicTrace &trace : set.traces())
        QVERIFY2(rematlens::PublicTraceSet::stateIn(shared + QStringLiteral("/traces/dtr-2020"), trace)
                     == rematlens::PublicTraceState::Verified,
                 qPrintable(trace.fileName));
}

void PublicTracesTest::downloadInstallsEveryTrace()
{
    const QString shared = sharedDirectory();
    if (shared.isEmpty())
        QSKIP("../shared is not present: no archive of the real traces to install");
    const QString archive = zipOf(QStringLiteral("logs.zip"), publishedLayout());
    QVERIFY(!archive.isEmpty());
    const QString directory = m_dir.filePath(QStringLiteral("installed"));
    const Result r = rematlens({QStringLiteral("traces"), QStringLiteral("download"), QStringLiteral("--to"), directory,
                                QStringLiteral("--url"), QUrl::fromLocalFile(archive).toString()});
    QVERIFY2(r.status == 0, r.err.constData());
    QVERIFY2(r.out.contains("Installed 8 traces"), r.out.constData());
    QStringList expected;
    for (const rematlens::PublicTrace &trace : rematlens::PublicTraceSet::dtr2020().traces()) {
        expected << trace.fileName;
        QVERIFY2(readFile(QDir(directory).filePath(trace.fileName)) == readFile(publicTracePath(shared, trace.fileName)),
                 qPrintable(trace.fileName));
    }
    expected.sort();
    QCOMPARE(QDir(directory).entryList(QDir::Files | QDir::Hidden, QDir::Name), expected); // nothing else

    const Result status = rematlens({QStringLiteral("traces"), QStringLiteral("status"), QStringLiteral("--dir"), directory});
    QVERIFY2(status.status == 0, status.out.constData());
    QCOMPARE(status.out.count("installed, verified"), 8);
    QVERIFY(status.out.contains("8 of 8 installed and verified"));
}

// With neither --to nor --url: REMATLENS_TRACES_URL (here a plain path) gives the archive, and the
// traces go where the GUI's File > Open and Help > Public DTR Traces look.
void PublicTracesTest::defaultDirectoryIsWhereTheGuiLooks()
{
    const QString shared = sharedDirectory();
    if (shared.isEmpty())
        QSKIP("../shared is not present: no archive of the real traces to install");
    const QString archive = zipOf(QStringLiteral("default.zip"), publishedLayout());
    QVERIFY(!archive.isEmpty());
    const QString dataHome = m_dir.filePath(QStringLiteral("data-home"));
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("XDG_DATA_HOME"), dataHome);
    environment.insert(QStringLiteral("REMATLENS_TRACES_URL"), archive);
    const Result r = rematlens({QStringLiteral("traces"), QStringLiteral("download")}, environment);
    QVERIFY2(r.status == 0, r.err.constData());

    const QByteArray saved = qgetenv("XDG_DATA_HOME");
    qputenv("XDG_DATA_HOME", dataHome.toUtf8());
    const QString guiDirectory = rematlens::PublicTraceSet::defaultDirectory();
    qputenv("XDG_DATA_HOME", saved);
    QCOMPARE(guiDirectory, dataHome + QStringLiteral("/RematLens/traces/dtr-2020"));
    QVERIFY2(r.out.contains(guiDirectory.toUtf8()), r.out.constData());
    for (const rematlens::PublicTrace &trace : rematlens::PublicTraceSet::dtr2020().traces())
        QCOMPARE(rematlens::PublicTraceSet::stateIn(guiDirectory, trace), rematlens::PublicTraceState::Verified);
}

// One trace differs from its published checksum (all of them, with stand-ins): the error names it
// and nothing is written, not even over an older copy already installed.
void PublicTracesTest::alteredTraceInstallsNothing()
{
    Entries entries = publishedLayout();
    const bool real = !sharedDirectory().isEmpty();
    const rematlens::PublicTrace &culprit = rematlens::PublicTraceSet::dtr2020().traces()[real ? 4 : 0];
    for (auto &[name, content] : entries)
        if (name == QStringLiteral("logs/") + culprit.fileName)
            content.append('\n');
    const QString archive = zipOf(QStringLiteral("altered.zip"), entries);
    QVERIFY(!archive.isEmpty());
    const QString directory = m_dir.filePath(QStringLiteral("altered"));
    const Result r = rematlens({QStringLiteral("traces"), QStringLiteral("download"), QStringLiteral("--to"), directory,
                                QStringLiteral("--url"), QUrl::fromLocalFile(archive).toString()});
    verifyNothingInstalled(r, directory, culprit.fileName);
    QVERIFY2(r.err.contains("does not match its published SHA-256 (expected " + culprit.sha256), r.err.constData());

    QVERIFY(QDir().mkpath(directory));
    const QString older = QDir(directory).filePath(culprit.fileName);
    QFile file(older);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("an older copy\n");
    file.close();
    const Result again = rematlens({QStringLiteral("traces"), QStringLiteral("download"), QStringLiteral("--to"),
                                    directory, QStringLiteral("--url"), archive});
    QCOMPARE(again.status, 1);
    QCOMPARE(QDir(directory).entryList(QDir::Files | QDir::Hidden), QStringList{culprit.fileName});
    QCOMPARE(readFile(older), QByteArray("an older copy\n"));
}

void PublicTracesTest::missingTraceInstallsNothing()
{
    Entries entries = publishedLayout();
    const QString culprit = rematlens::PublicTraceSet::dtr2020().traces()[2].fileName;
    std::erase_if(entries, [&](const auto &entry) { return entry.first == QStringLiteral("logs/") + culprit; });
    const QString archive = zipOf(QStringLiteral("missing.zip"), entries);
    QVERIFY(!archive.isEmpty());
    const QString directory = m_dir.filePath(QStringLiteral("missing"));
    const Result r = rematlens({QStringLiteral("traces"), QStringLiteral("download"), QStringLiteral("--to"), directory,
                                QStringLiteral("--url"), archive});
    verifyNothingInstalled(r, directory, QStringLiteral("the archive has no ") + culprit);
}

// The same name in two folders: which one is the trace is anyone's guess, so neither is taken.
void PublicTracesTest::duplicateTraceInstallsNothing()
{
    Entries entries = publishedLayout();
    const QString culprit = rematlens::PublicTraceSet::dtr2020().traces()[6].fileName;
    entries.emplace_back(QStringLiteral("other/") + culprit, "another file of the same name\n");
    const QString archive = zipOf(QStringLiteral("twice.zip"), entries);
    QVERIFY(!archive.isEmpty());
    const QString directory = m_dir.filePath(QStringLiteral("twice"));
    const Result r = rematlens({QStringLiteral("traces"), QStringLiteral("download"), QStringLiteral("--to"), directory,
                                QStringLiteral("--url"), archive});
    verifyNothingInstalled(r, directory, QStringLiteral("the archive holds ") + culprit + QStringLiteral(" twice"));
}

// Bytes flipped inside the compressed data: whichever check catches it (inflate, CRC, sizes or
// the checksum), the command ends with an error and writes nothing.
void PublicTracesTest::damagedArchiveInstallsNothing()
{
    const QString archive = zipOf(QStringLiteral("damaged.zip"), publishedLayout());
    QVERIFY(!archive.isEmpty());
    QFile file(archive);
    QVERIFY(file.open(QIODevice::ReadWrite));
    QByteArray bytes = file.readAll();
    for (qsizetype at = bytes.size() / 4; at < bytes.size() / 2; at += 4096)
        bytes[at] = static_cast<char>(bytes[at] ^ 0x55);
    QVERIFY(file.seek(0));
    QCOMPARE(file.write(bytes), bytes.size());
    file.close();
    const QString directory = m_dir.filePath(QStringLiteral("damaged"));
    const Result r = rematlens({QStringLiteral("traces"), QStringLiteral("download"), QStringLiteral("--to"), directory,
                                QStringLiteral("--url"), archive});
    verifyNothingInstalled(r, directory, QStringLiteral("rematlens: error: ") + archive + QStringLiteral(": "));
}

void PublicTracesTest::notAZipInstallsNothing()
{
    const QString notZip = m_dir.filePath(QStringLiteral("page.html"));
    QFile file(notZip);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("<html>moved</html>\n");
    file.close();
    const QString directory = m_dir.filePath(QStringLiteral("not-zip"));
    const Result r = rematlens({QStringLiteral("traces"), QStringLiteral("download"), QStringLiteral("--to"), directory,
                                QStringLiteral("--url"), QUrl::fromLocalFile(notZip).toString()});
    verifyNothingInstalled(r, directory, QStringLiteral("the download is not a zip archive"));
}

void PublicTracesTest::unreachableAddressFails()
{
    const QString directory = m_dir.filePath(QStringLiteral("unreachable"));
    const QString address = QUrl::fromLocalFile(m_dir.filePath(QStringLiteral("no-such.zip"))).toString();
    const Result r = rematlens({QStringLiteral("traces"), QStringLiteral("download"), QStringLiteral("--to"), directory,
                                QStringLiteral("--url"), address});
    verifyNothingInstalled(r, directory, QStringLiteral("cannot download ") + address);
}

void PublicTracesTest::statusNamesMissingAndAlteredTraces()
{
    const std::vector<rematlens::PublicTrace> &traces = rematlens::PublicTraceSet::dtr2020().traces();
    const QString directory = m_dir.filePath(QStringLiteral("status"));
    QVERIFY(QDir().mkpath(directory));
    QFile altered(QDir(directory).filePath(traces[1].fileName));
    QVERIFY(altered.open(QIODevice::WriteOnly));
    altered.write("not the published trace\n");
    altered.close();
    const QString shared = sharedDirectory();
    if (!shared.isEmpty())
        QVERIFY(QFile::copy(publicTracePath(shared, traces[0].fileName), QDir(directory).filePath(traces[0].fileName)));

    const Result r = rematlens({QStringLiteral("traces"), QStringLiteral("list"), QStringLiteral("--dir"), directory});
    QCOMPARE(r.status, 1);
    const QList<QByteArray> lines = r.out.split('\n');
    QCOMPARE(lines.size(), 11); // heading, eight traces, summary, and the final newline
    QCOMPARE(lines[0], "Public DTR traces in " + directory.toUtf8() + ":");
    // One line per trace, names padded to one width.
    QCOMPARE(lines[2].simplified(), traces[1].fileName.toUtf8() + " differs from the published trace (SHA-256)");
    QCOMPARE(lines[3].simplified(), traces[2].fileName.toUtf8() + " missing");
    QCOMPARE(lines[1].simplified(), traces[0].fileName.toUtf8() + (shared.isEmpty() ? " missing" : " installed, verified"));
    QCOMPARE(lines[1].indexOf(" missing") >= 0 ? lines[1].indexOf(" missing") : lines[1].indexOf(" installed"),
             lines[3].indexOf(" missing"));
    QCOMPARE(lines[9], QByteArray(shared.isEmpty() ? "0" : "1")
                           + " of 8 installed and verified; `rematlens traces download` installs them");
}

void PublicTracesTest::tracesNeedsASubcommand()
{
    QCOMPARE(rematlens({QStringLiteral("traces")}).status, 2);
    QCOMPARE(rematlens({QStringLiteral("traces"), QStringLiteral("download"), QStringLiteral("--bogus")}).status, 2);
}

QTEST_GUILESS_MAIN(PublicTracesTest)
#include "tst_public_traces.moc"
