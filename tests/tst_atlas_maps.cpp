// The bundled maps of the public traces (the atlas: gzip-compressed `map --out` files): read back
// record for record, errors naming the file and line; in the window, a map of the trace opened is
// shown at once on the strip row of its identity alone, with no replay, its gaps unmapped; Map
// walks only what it leaves out; maps of other traces are ignored, unreadable files warned about.
#include "gui/demo_atlas.h"
#include "gui/test_window.h"

#include "app/formats/bundled_map_reader.h"
#include "app/gui/atlas_directory.h"
#include "app/gui/main_window.h"
#include "app/gui/map_coordinator.h"
#include "app/gui/seeded_policy.h"
#include "app/gui/strip_status.h"
#include "app/gui/trace_maps_loader.h"
#include "core/sim/run_identity.h"
#include "views/strip/feasibility_strip.h"
#include "views/strip/mapped_row.h"
#include "views/tables/exact_map_model.h"
#include "views/common/number_format.h"
#include "views/tables/sweep_result_model.h"

#include <QFile>
#include <QProcess>
#include <QStatusBar>
#include <QtTest>

#include <map>

#include <nlohmann/json.hpp>

using namespace rematlens;

namespace {

using Json = nlohmann::ordered_json;

// The records of a plain map file: what the window must show.
struct PlainMap {
    std::string header;
    std::vector<std::string> lines; // the records, as written
    std::vector<Json> records;
};

PlainMap readPlain(const QString &path)
{
    PlainMap map;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return map;
    const QList<QByteArray> lines = file.readAll().split('\n');
    for (const QByteArray &line : lines) {
        if (line.isEmpty())
            continue;
        if (map.header.empty())
            map.header = line.toStdString();
        else {
            map.lines.push_back(line.toStdString());
            map.records.push_back(Json::parse(line.toStdString()));
        }
    }
    return map;
}

QByteArray joined(const std::string &header, const std::vector<std::string> &lines)
{
    QByteArray text = QByteArray::fromStdString(header) + '\n';
    for (const std::string &line : lines)
        text += QByteArray::fromStdString(line) + '\n';
    return text;
}

// The same header naming another trace's content.
std::string otherTrace(const std::string &header)
{
    Json j = Json::parse(header);
    std::string sha = j["provenance"]["trace_sha256"].get<std::string>();
    sha[0] = sha[0] == '0' ? '1' : '0';
    j["provenance"]["trace_sha256"] = sha;
    return j.dump();
}

QString outcomeOf(const RunResult &r)
{
    return QString::fromUtf8(outcomeName(r.outcome).data(), static_cast<qsizetype>(outcomeName(r.outcome).size()));
}

// Every interval of the row, lo, hi and result, equal to the file's records, in order.
void compareWithRecords(const std::vector<RunResult> &intervals, const std::vector<Json> &records)
{
    QCOMPARE(intervals.size(), records.size());
    for (std::size_t i = 0; i < records.size(); ++i) {
        const Json &record = records[i];
        const RunResult &r = intervals[i];
        QCOMPARE(r.interval.lo, record["lo"].get<Bytes>());
        QCOMPARE(r.interval.hi.has_value(), !record["hi"].is_null());
        if (r.interval.hi)
            QCOMPARE(*r.interval.hi, record["hi"].get<Bytes>());
        QCOMPARE(outcomeOf(r), QString::fromStdString(record["result"].get<std::string>()));
        QCOMPARE(r.clock, record["clock"].get<Cost>());
        QCOMPARE(r.evictions, record["evictions"].get<std::int64_t>());
    }
}

// The demo's DTR row as the window's sweep names it: eager, overhead limit 2, byte sum, nothing kept.
QString demoRowKey()
{
    RowIdentity row;
    row.policy = "DTR";
    row.runtime = RuntimeKind::Eager;
    row.allocator = allocatorKey(AllocatorConfig{});
    row.overheadLimit = 2.0;
    return QString::fromStdString(row.key());
}

SweepParameters demoSweep(const QString &from, const QString &to, const QString &step)
{
    SweepParameters p;
    p.from = from;
    p.to = to;
    p.step = step;
    p.policies = {QStringLiteral("DTR")};
    p.threads = 2;
    return p;
}

// A window with its own atlas and map cache; counts the scans of known maps it delivers.
struct AtlasWindow {
    MainWindow window;
    int scans = 0;

    AtlasWindow(const SweepParameters &parameters)
    {
        window.setSweepParameters(parameters);
        TraceMapsLoader *loader = window.findChild<TraceMapsLoader *>();
        if (loader)
            QObject::connect(loader, &TraceMapsLoader::loaded, &window, [this] { ++scans; });
    }
    MapCoordinator *maps() const { return window.findChild<MapCoordinator *>(); }
    // The scans delivered so far, and their maps built and on the strip.
    bool shown(int delivered) const { return scans == delivered && !maps()->settling(); }
    // The status bar's field naming where the strip's maps came from.
    QString mapsStatus() const { return window.stripStatus().mapsText(); }
    // Opens the demo and waits for the sweep (and so for the window's settling).
    bool openDemo()
    {
        QSignalSpy swept(&window, &MainWindow::sweepFinished);
        window.openTrace(QStringLiteral(":demo"));
        return swept.wait(60000) || swept.count() > 0;
    }
    std::optional<std::size_t> map()
    {
        QSignalSpy mapped(&window, &MainWindow::mapFinished);
        if (!window.startMap() || !(mapped.wait(120000) || mapped.count() > 0))
            return std::nullopt;
        return maps()->lastReplays();
    }
    QString status() const { return window.statusBar()->currentMessage(); }
};

} // namespace

class AtlasMapsTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void atlasIsLookedForWhereTheReadmeSays();
    void readerReadsEveryRecord();
    void readerErrorsNameFileAndLine();
    void filesReadSideBySideKeepTheirOrderAndErrors();
    void windowShowsTheMapAtOnceWithoutReplays();
    void mapIsShownOnItsOwnRowOnly();
    void allocatorModelMapsShowOnTheirRows();
    void policyMapsShowOnTheirRows();
    void randomSeedsAreRowsWithTheirOwnMaps();
    void seedOfAPolicyThatDrawsNothingIsRefused();
    void anotherTracesMapIsIgnored();
    void gapsStayUnmapped();
    void widerMapWalksOnlyWhatTheAtlasLeavesOut();
    void mapAskedWhileTheAtlasIsReadWaitsForIt();
    void unreadableFileWarnsAndTheWindowKeepsWorking();

private:
    QString atlasWith(const QString &name, const QByteArray &content);
    QString packedDemoMap(const QString &fileName, const QStringList &arguments, PlainMap &map,
                          QList<std::pair<QString, QByteArray>> &files);
    QString atlasWithFiles(const QList<std::pair<QString, QByteArray>> &files);

    GuiTestUser m_user;
    PlainMap m_full; // the demo mapped over 0.10-1.00
    PlainMap m_part; // over 0.30-0.40
    int m_case = 0;
};

void AtlasMapsTest::initTestCase()
{
    QVERIFY(m_user.isValid());
    m_user.setUp(QStringLiteral("RematLensAtlasTest"));
    const QString full = m_user.filePath(QStringLiteral("full.jsonl"));
    const QString part = m_user.filePath(QStringLiteral("part.jsonl"));
    QString error = mapDemo(QStringLiteral("0.10"), QStringLiteral("1.00"), full);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    error = mapDemo(QStringLiteral("0.30"), QStringLiteral("0.40"), part);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    m_full = readPlain(full);
    m_part = readPlain(part);
    QVERIFY(m_full.records.size() > 100);
    QVERIFY(m_part.records.size() > 10);
}

// Each case starts with no map made before: an empty cache.
void AtlasMapsTest::init()
{
    ++m_case;
    m_user.reset();
    qputenv("REMATLENS_ATLAS_DIR", m_user.filePath(QStringLiteral("none")).toUtf8());
}

QString AtlasMapsTest::atlasWithFiles(const QList<std::pair<QString, QByteArray>> &files)
{
    const QString atlas = m_user.filePath(QStringLiteral("atlas%1").arg(m_case));
    QDir().mkpath(atlas);
    for (const auto &[name, content] : files) {
        const QString path = atlas + QLatin1Char('/') + name;
        if (name.endsWith(QStringLiteral(".gz")) && !content.startsWith("\x1f\x8b"))
            writeGzip(path, content);
        else {
            QFile file(path);
            file.open(QIODevice::WriteOnly);
            file.write(content);
        }
    }
    qputenv("REMATLENS_ATLAS_DIR", atlas.toUtf8());
    return atlas;
}

QString AtlasMapsTest::atlasWith(const QString &name, const QByteArray &content)
{
    return atlasWithFiles({{name, content}}) + QLatin1Char('/') + name;
}

// The demo mapped over 0.10-1.00 with these arguments, read back into map and added to files
// under fileName, as the atlas packs it; what went wrong otherwise.
QString AtlasMapsTest::packedDemoMap(const QString &fileName, const QStringList &arguments, PlainMap &map,
                                     QList<std::pair<QString, QByteArray>> &files)
{
    const QString path = m_user.filePath(fileName + QStringLiteral(".plain.jsonl"));
    if (const QString error = mapDemo(QStringLiteral("0.10"), QStringLiteral("1.00"), path, arguments); !error.isEmpty())
        return error;
    map = readPlain(path);
    if (map.records.empty())
        return path + QStringLiteral(": no interval records");
    files.append({fileName, joined(map.header, map.lines)});
    return {};
}

// The variable first, whatever it names; then beside the program (this test runs from the build
// tree, where nothing is installed), then the source tree's atlas/maps if it is there.
void AtlasMapsTest::atlasIsLookedForWhereTheReadmeSays()
{
    const QString chosen = m_user.filePath(QStringLiteral("chosen"));
    qputenv("REMATLENS_ATLAS_DIR", chosen.toUtf8());
    QCOMPARE(atlasDirectory(), chosen);
    qunsetenv("REMATLENS_ATLAS_DIR");
    const QString source = QDir::cleanPath(QStringLiteral(REMATLENS_SOURCE_DIR "/atlas/maps"));
    QCOMPARE(QDir::cleanPath(atlasDirectory()), QFileInfo(source).isDir() ? source : QString());
}

void AtlasMapsTest::readerReadsEveryRecord()
{
    const QString path = atlasWith(QStringLiteral("demo.jsonl.gz"), joined(m_full.header, m_full.lines));
    std::string error;
    const std::optional<BundledMap> map = BundledMapReader::read(path.toStdString(), error);
    QVERIFY2(map, error.c_str());
    const Json header = Json::parse(m_full.header)["provenance"];
    QCOMPARE(map->traceSha256, header["trace_sha256"].get<std::string>());
    QCOMPARE(map->range.from, header["range"]["from_bytes"].get<Bytes>());
    QCOMPARE(map->range.end, header["range"]["to_bytes"].get<Bytes>());
    QCOMPARE(map->rows.size(), std::size_t{1});
    QCOMPARE(QString::fromStdString(map->rows[0].identity.key()), demoRowKey());
    compareWithRecords(map->rows[0].intervals, m_full.records);
    const std::optional<std::string> sha = BundledMapReader::traceSha256Of(path.toStdString(), error);
    QVERIFY2(sha, error.c_str());
    QCOMPARE(*sha, map->traceSha256);
}

// Several files read at once: each its own map or its own error, in the order asked.
void AtlasMapsTest::filesReadSideBySideKeepTheirOrderAndErrors()
{
    std::vector<std::string> lines = m_full.lines;
    lines[3] = "{\"heuristic\":\"DTR\",\"lo\":\"not a number\"}"; // line 5 of the file
    const QString good = atlasWith(QStringLiteral("good.jsonl.gz"), joined(m_full.header, m_full.lines));
    const QString bad = atlasWith(QStringLiteral("bad.jsonl.gz"), joined(m_full.header, lines));
    const std::vector<std::string> half(m_full.lines.begin(), m_full.lines.begin() + m_full.lines.size() / 2);
    const QString firstHalf = atlasWith(QStringLiteral("half.jsonl.gz"), joined(m_full.header, half));
    const std::vector<BundledMapReader::Read> reads =
        BundledMapReader::readAll({good.toStdString(), bad.toStdString(), firstHalf.toStdString()});
    QCOMPARE(reads.size(), std::size_t{3});
    QVERIFY2(reads[0].map, reads[0].error.c_str());
    compareWithRecords(reads[0].map->rows[0].intervals, m_full.records);
    QVERIFY(!reads[1].map);
    QVERIFY2(QString::fromStdString(reads[1].error).startsWith(bad + QStringLiteral(":5: ")), reads[1].error.c_str());
    QVERIFY2(reads[2].map, reads[2].error.c_str());
    QCOMPARE(reads[2].map->rows[0].intervals.size(), m_full.lines.size() / 2);
}

void AtlasMapsTest::readerErrorsNameFileAndLine()
{
    std::vector<std::string> lines = m_full.lines;
    lines[3] = "{\"heuristic\":\"DTR\",\"lo\":\"not a number\"}"; // line 5 of the file
    const QString badRecord = atlasWith(QStringLiteral("record.jsonl.gz"), joined(m_full.header, lines));
    std::string error;
    QVERIFY(!BundledMapReader::read(badRecord.toStdString(), error));
    QVERIFY2(QString::fromStdString(error).startsWith(badRecord + QStringLiteral(":5: ")), error.c_str());

    const QString badHeader = atlasWith(QStringLiteral("header.jsonl.gz"), joined("{\"provenance\":{}}", m_full.lines));
    QVERIFY(!BundledMapReader::traceSha256Of(badHeader.toStdString(), error));
    QVERIFY2(QString::fromStdString(error).startsWith(badHeader + QStringLiteral(":1: ")), error.c_str());

    // Cut short: the header reads, the records stop in the middle of the compressed stream.
    QByteArray packed;
    {
        const QString whole = atlasWith(QStringLiteral("whole.jsonl.gz"), joined(m_full.header, m_full.lines));
        QFile file(whole);
        QVERIFY(file.open(QIODevice::ReadOnly));
        packed = file.readAll();
    }
    const QString cut = atlasWith(QStringLiteral("cut.jsonl.gz"), packed.left(packed.size() / 2));
    QVERIFY(BundledMapReader::traceSha256Of(cut.toStdString(), error));
    QVERIFY(!BundledMapReader::read(cut.toStdString(), error));
    QVERIFY2(QString::fromStdString(error).startsWith(cut + QStringLiteral(":")) &&
                 QString::fromStdString(error).contains(QStringLiteral("cut short")),
             error.c_str());

    // Damaged in the middle: inflate or the checksum refuses it.
    QByteArray damaged = packed;
    for (qsizetype i = damaged.size() / 2; i < damaged.size() / 2 + 64; ++i)
        damaged[i] = static_cast<char>(~damaged[i]);
    const QString corrupt = atlasWith(QStringLiteral("corrupt.jsonl.gz"), damaged);
    QVERIFY(!BundledMapReader::read(corrupt.toStdString(), error));
    QVERIFY2(QString::fromStdString(error).startsWith(corrupt + QStringLiteral(":")), error.c_str());

    // Not gzip at all (zlib would read it as it is).
    const QString plain = m_user.filePath(QStringLiteral("plain.jsonl.gz"));
    {
        QFile file(plain);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(joined(m_full.header, m_full.lines));
    }
    QVERIFY(!BundledMapReader::read(plain.toStdString(), error));
    QVERIFY2(QString::fromStdString(error).contains(QStringLiteral("not gzip")), error.c_str());
}

void AtlasMapsTest::windowShowsTheMapAtOnceWithoutReplays()
{
    atlasWith(QStringLiteral("demo.jsonl.gz"), joined(m_full.header, m_full.lines));
    AtlasWindow w(demoSweep(QStringLiteral("0.1"), QStringLiteral("1.0"), QStringLiteral("0.05")));
    QSignalSpy loaded(&w.window, &MainWindow::traceLoaded);
    QSignalSpy swept(&w.window, &MainWindow::sweepFinished);
    w.window.openTrace(QStringLiteral(":demo"));
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 20000);
    QTRY_VERIFY_WITH_TIMEOUT(w.shown(1), 20000);
    // On the strip's DTR row, before any map was asked for.
    const QString key = ExactMapModel::keyOf(w.window.sweepModel()->request(0, 0));
    QCOMPARE(key, demoRowKey());
    const MappedRow *row = w.window.strip()->mappedRow(0);
    QVERIFY(row);
    compareWithRecords(row->intervals, m_full.records);
    QVERIFY(row->summary.unmapped.empty());
    const QString said = QStringLiteral("DTR: map 0.10–1.00, complete, from the atlas (demo.jsonl.gz)");
    QCOMPARE(w.mapsStatus(), said);

    // Mapping the range the atlas covers replays nothing and changes nothing.
    QTRY_COMPARE_WITH_TIMEOUT(swept.count(), 1, 60000);
    const std::optional<std::size_t> replays = w.map();
    QVERIFY(replays);
    QCOMPARE(*replays, std::size_t{0});
    compareWithRecords(w.window.strip()->mappedRow(0)->intervals, m_full.records);
}

void AtlasMapsTest::mapIsShownOnItsOwnRowOnly()
{
    atlasWith(QStringLiteral("demo.jsonl.gz"), joined(m_full.header, m_full.lines));
    // Another overhead limit: another row, never this map.
    SweepParameters p = demoSweep(QStringLiteral("0.1"), QStringLiteral("1.0"), QStringLiteral("0.1"));
    p.overheadLimit = QStringLiteral("3");
    AtlasWindow limit(p);
    QVERIFY(limit.openDemo());
    QTRY_VERIFY_WITH_TIMEOUT(limit.shown(1), 20000);
    QVERIFY(!limit.window.strip()->mappedRow(0));
    QVERIFY(limit.window.exactMaps()->row(demoRowKey())); // held for the row it belongs to

    // The byte sum's row shows it, the caching allocator's row beside it does not.
    p.overheadLimit = QStringLiteral("2.0");
    p.allocators = {QStringLiteral("sum"), QStringLiteral("caching")};
    AtlasWindow allocators(p);
    QVERIFY(allocators.openDemo());
    QTRY_VERIFY_WITH_TIMEOUT(allocators.shown(1), 20000);
    const SweepResultModel &sweep = *allocators.window.sweepModel();
    QCOMPARE(sweep.policyCount(), std::size_t{2});
    int shown = 0;
    for (std::size_t r = 0; r < sweep.policyCount(); ++r) {
        const bool sum = sweep.rowIdentity(r).allocator == allocatorKey(AllocatorConfig{});
        const MappedRow *row = allocators.window.strip()->mappedRow(r);
        QCOMPARE(row != nullptr, sum);
        shown += row != nullptr;
    }
    QCOMPARE(shown, 1);
}

// The atlas holds the byte sum's map and the caching model's: each row shows its own at once.
void AtlasMapsTest::allocatorModelMapsShowOnTheirRows()
{
    const QString cachingPath = m_user.filePath(QStringLiteral("caching.jsonl"));
    const QString error = mapDemo(QStringLiteral("0.10"), QStringLiteral("1.00"), cachingPath,
                                  {QStringLiteral("--allocator"), QStringLiteral("caching")});
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const PlainMap caching = readPlain(cachingPath);
    QVERIFY(!caching.records.empty());
    atlasWithFiles({{QStringLiteral("demo.jsonl.gz"), joined(m_full.header, m_full.lines)},
                    {QStringLiteral("demo.caching.jsonl.gz"), joined(caching.header, caching.lines)}});
    SweepParameters p = demoSweep(QStringLiteral("0.1"), QStringLiteral("1.0"), QStringLiteral("0.1"));
    p.allocators = {QStringLiteral("sum"), QStringLiteral("caching")};
    AtlasWindow w(p);
    QVERIFY(w.openDemo());
    QTRY_VERIFY_WITH_TIMEOUT(w.shown(1), 20000);
    const SweepResultModel &sweep = *w.window.sweepModel();
    QCOMPARE(sweep.policyCount(), std::size_t{2});
    for (std::size_t r = 0; r < sweep.policyCount(); ++r) {
        const MappedRow *row = w.window.strip()->mappedRow(r);
        QVERIFY(row);
        const bool sum = sweep.rowIdentity(r).allocator == allocatorKey(AllocatorConfig{});
        compareWithRecords(row->intervals, sum ? m_full.records : caching.records);
    }
    QVERIFY2(w.mapsStatus().contains(QStringLiteral("demo.caching.jsonl.gz")), qPrintable(w.mapsStatus()));
}

// The policy atlas packs one map per policy (demo.LRU.jsonl.gz beside demo.jsonl.gz): each
// policy row of the strip shows its own at once.
void AtlasMapsTest::policyMapsShowOnTheirRows()
{
    QList<std::pair<QString, QByteArray>> files{{QStringLiteral("demo.jsonl.gz"), joined(m_full.header, m_full.lines)}};
    std::map<QString, PlainMap> byPolicy{{QStringLiteral("DTR"), m_full}};
    for (const QString &policy : {QStringLiteral("LRU"), QStringLiteral("MSPS")}) {
        const QString error =
            packedDemoMap(QStringLiteral("demo.%1.jsonl.gz").arg(policy), {QStringLiteral("--policy"), policy}, byPolicy[policy], files);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }
    atlasWithFiles(files);
    SweepParameters p = demoSweep(QStringLiteral("0.1"), QStringLiteral("1.0"), QStringLiteral("0.1"));
    p.policies = {QStringLiteral("DTR"), QStringLiteral("LRU"), QStringLiteral("MSPS")};
    AtlasWindow w(p);
    QVERIFY(w.openDemo());
    QTRY_VERIFY_WITH_TIMEOUT(w.shown(1), 20000);
    const SweepResultModel &sweep = *w.window.sweepModel();
    QCOMPARE(sweep.policyCount(), std::size_t{3});
    for (std::size_t r = 0; r < sweep.policyCount(); ++r) {
        const MappedRow *row = w.window.strip()->mappedRow(r);
        QVERIFY(row);
        const QString policy = QString::fromStdString(sweep.rowIdentity(r).policy);
        QVERIFY2(byPolicy.count(policy), qPrintable(policy));
        compareWithRecords(row->intervals, byPolicy[policy].records);
    }
    QVERIFY2(w.mapsStatus().contains(QStringLiteral("demo.LRU.jsonl.gz")), qPrintable(w.mapsStatus()));
}

// The atlas maps RandomStorage under seeds 0, 1 and 2: the window sweeps them as three rows
// ("RandomStorage:seed=1"), each replayed under its seed and drawn with its own map.
void AtlasMapsTest::randomSeedsAreRowsWithTheirOwnMaps()
{
    QList<std::pair<QString, QByteArray>> files;
    std::map<std::uint64_t, PlainMap> bySeed;
    for (std::uint64_t seed : {0, 1, 2}) {
        const QString error = packedDemoMap(QStringLiteral("demo.RandomStorage-%1.jsonl.gz").arg(seed),
                                            {QStringLiteral("--policy"), QStringLiteral("RandomStorage"),
                                             QStringLiteral("--seed"), QString::number(seed)},
                                            bySeed[seed], files);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }
    QVERIFY2(bySeed[1].lines != bySeed[2].lines, "the demo's maps under seeds 1 and 2 should differ for this test to tell them apart");
    atlasWithFiles(files);
    SweepParameters p = demoSweep(QStringLiteral("0.1"), QStringLiteral("1.0"), QStringLiteral("0.01"));
    p.policies = {QStringLiteral("RandomStorage"), QStringLiteral("RandomStorage:seed=1"), QStringLiteral("RandomStorage:seed=2")};
    AtlasWindow w(p);
    QVERIFY(w.openDemo());
    QTRY_VERIFY_WITH_TIMEOUT(w.shown(1), 20000);
    const SweepResultModel &sweep = *w.window.sweepModel();
    QCOMPARE(sweep.policyCount(), std::size_t{3});
    const QStringList names{QStringLiteral("RandomStorage"), QStringLiteral("RandomStorage \u00b7 seed 1"),
                            QStringLiteral("RandomStorage \u00b7 seed 2")};
    for (std::size_t r = 0; r < 3; ++r) {
        QCOMPARE(sweep.policyName(r), names[int(r)]);
        QCOMPARE(sweep.rowIdentity(r).policy, std::string("RandomStorage"));
        QCOMPARE(sweep.rowIdentity(r).seed, std::uint64_t(r));
        const MappedRow *row = w.window.strip()->mappedRow(r);
        QVERIFY2(row, qPrintable(names[int(r)]));
        compareWithRecords(row->intervals, bySeed[r].records);
    }
    // Another window, seed 1 alone: the runs it finds in the sweep cache are seed 1's, never
    // those of seed 0 at the same budgets.
    p.policies = {QStringLiteral("RandomStorage:seed=1")};
    AtlasWindow again(p);
    QVERIFY(again.openDemo());
    bool seedsDiffer = false;
    for (std::size_t column = 0; column < sweep.gridSize(); ++column) {
        const std::optional<RunResult> &cached = again.window.sweepModel()->result(0, column);
        QVERIFY(cached && sweep.result(1, column));
        QCOMPARE(cached->clock, sweep.result(1, column)->clock);
        QCOMPARE(cached->maxMemory, sweep.result(1, column)->maxMemory);
        seedsDiffer = seedsDiffer || cached->clock != sweep.result(0, column)->clock;
    }
    QVERIFY2(seedsDiffer, "seeds 0 and 1 should differ somewhere on this grid for the check to tell them apart");
}

// A seed for a policy that draws nothing, or one that is not a number, is refused with the
// reason, and the strip keeps the rows it had.
void AtlasMapsTest::seedOfAPolicyThatDrawsNothingIsRefused()
{
    AtlasWindow w(demoSweep(QStringLiteral("0.1"), QStringLiteral("1.0"), QStringLiteral("0.1")));
    QVERIFY(w.openDemo());
    for (const QString &policy : {QStringLiteral("DTR:seed=1"), QStringLiteral("RandomStorage:seed=one")}) {
        SweepParameters p = w.window.sweepParameters();
        p.policies = {policy};
        w.window.setSweepParameters(p);
        QVERIFY(!w.window.startSweep());
        QCOMPARE(w.window.sweepModel()->policyName(0), QStringLiteral("DTR"));
    }
    QString error;
    QVERIFY(!SeededPolicy::parse(QStringLiteral("RandomStorage:seed=-1"), error));
    QVERIFY2(error.contains(QStringLiteral("a seed is a whole number")), qPrintable(error));
    const std::optional<SeededPolicy> seeded = SeededPolicy::parse(QStringLiteral("RandomStorage:seed=2"), error);
    QVERIFY(seeded && seeded->seeded && seeded->seed == 2 && seeded->spec == QStringLiteral("RandomStorage"));
}

void AtlasMapsTest::anotherTracesMapIsIgnored()
{
    atlasWith(QStringLiteral("other.jsonl.gz"), joined(otherTrace(m_full.header), m_full.lines));
    AtlasWindow w(demoSweep(QStringLiteral("0.3"), QStringLiteral("0.4"), QStringLiteral("0.05")));
    QVERIFY(w.openDemo());
    QTRY_VERIFY_WITH_TIMEOUT(w.shown(1), 20000);
    QVERIFY(!w.window.strip()->mappedRow(0));
    QVERIFY(w.window.exactMaps()->empty());
    QVERIFY2(!w.status().contains(QStringLiteral("atlas")), qPrintable(w.status()));
    QCOMPARE(w.mapsStatus(), QString());
}

// Records missing from a map (it was stopped before the end) leave their budgets unmapped,
// exactly those, and the status line says the map has gaps.
void AtlasMapsTest::gapsStayUnmapped()
{
    std::vector<std::string> lines;
    std::vector<Json> kept;
    ByteRange dropped{0, 0};
    const std::size_t from = m_full.lines.size() / 3;
    const std::size_t to = from + 20;
    for (std::size_t i = 0; i < m_full.lines.size(); ++i) {
        if (i >= from && i < to) {
            if (i == from)
                dropped.from = m_full.records[i]["lo"].get<Bytes>();
            dropped.end = m_full.records[i]["hi"].get<Bytes>();
            continue;
        }
        lines.push_back(m_full.lines[i]);
        kept.push_back(m_full.records[i]);
    }
    atlasWith(QStringLiteral("demo.jsonl.gz"), joined(m_full.header, lines));
    AtlasWindow w(demoSweep(QStringLiteral("0.1"), QStringLiteral("1.0"), QStringLiteral("0.1")));
    QVERIFY(w.openDemo());
    QTRY_VERIFY_WITH_TIMEOUT(w.shown(1), 20000);
    const MappedRow *row = w.window.strip()->mappedRow(0);
    QVERIFY(row);
    compareWithRecords(row->intervals, kept);
    QCOMPARE(row->summary.unmapped.size(), std::size_t{1});
    QCOMPARE(row->summary.unmapped[0].from, dropped.from);
    QCOMPARE(row->summary.unmapped[0].end, dropped.end);
    QVERIFY(!row->intervalAt(dropped.from));
    QVERIFY(!row->intervalAt(dropped.end - 1));
    QCOMPARE(w.mapsStatus(), QStringLiteral("DTR: map 0.10–1.00, with unmapped gaps, from the atlas (demo.jsonl.gz)"));

    // Mapping fills exactly the gap, with the intervals the full map has there.
    QVERIFY(w.map());
    QVERIFY(w.maps()->lastReplays() > 0);
    compareWithRecords(w.window.strip()->mappedRow(0)->intervals, m_full.records);
}

void AtlasMapsTest::widerMapWalksOnlyWhatTheAtlasLeavesOut()
{
    const SweepParameters wide = demoSweep(QStringLiteral("0.25"), QStringLiteral("0.45"), QStringLiteral("0.05"));
    // The replays of a map of the whole range, from nothing.
    AtlasWindow plain(wide);
    QVERIFY(plain.openDemo());
    const std::optional<std::size_t> all = plain.map();
    QVERIFY(all);
    const std::vector<RunResult> expected = plain.window.strip()->mappedRow(0)->intervals;

    init(); // a fresh cache
    atlasWith(QStringLiteral("demo.jsonl.gz"), joined(m_part.header, m_part.lines));
    AtlasWindow w(wide);
    QVERIFY(w.openDemo());
    QTRY_VERIFY_WITH_TIMEOUT(w.shown(1), 20000);
    const MappedRow *before = w.window.strip()->mappedRow(0);
    QVERIFY(before);
    compareWithRecords(before->intervals, m_part.records);
    const std::optional<std::size_t> rest = w.map();
    QVERIFY(rest);
    QVERIFY2(*rest > 0 && *rest < *all, qPrintable(QStringLiteral("%1 of %2").arg(*rest).arg(*all)));
    const MappedRow *after = w.window.strip()->mappedRow(0);
    QVERIFY(after->summary.unmapped.empty());
    // The same outcome at both ends of every interval either map has (a walk of part of the
    // range splits an interval at the part's edge).
    const auto sameAt = [&](Bytes budget) {
        const RunResult *a = after->intervalAt(budget);
        const RunResult *b = plain.window.strip()->mappedRow(0)->intervalAt(budget);
        return a && b && a->outcome == b->outcome && a->clock == b->clock;
    };
    for (const std::vector<RunResult> *intervals : {&expected, &after->intervals})
        for (const RunResult &r : *intervals) {
            QVERIFY2(sameAt(r.interval.lo), qPrintable(QString::number(r.interval.lo)));
            if (r.interval.hi)
                QVERIFY2(sameAt(*r.interval.hi - 1), qPrintable(QString::number(*r.interval.hi - 1)));
        }
}

// Map Exactly asked while the atlas is still being read neither blocks the window nor walks
// what the atlas knows: it waits (running, and cancellable), then walks only the rest.
void AtlasMapsTest::mapAskedWhileTheAtlasIsReadWaitsForIt()
{
    const SweepParameters wide = demoSweep(QStringLiteral("0.25"), QStringLiteral("0.45"), QStringLiteral("0.05"));
    AtlasWindow plain(wide);
    QVERIFY(plain.openDemo());
    const std::optional<std::size_t> all = plain.map();
    QVERIFY(all);

    init(); // a fresh cache
    atlasWith(QStringLiteral("demo.jsonl.gz"), joined(m_part.header, m_part.lines));
    AtlasWindow w(wide);
    QVERIFY(w.openDemo());
    QTRY_VERIFY_WITH_TIMEOUT(w.shown(1), 20000);
    TraceMapsLoader *atlas = w.window.findChild<TraceMapsLoader *>();
    QVERIFY(atlas);
    // Cancelled before the atlas is read: nothing starts.
    atlas->load(w.window.traceHash(), false);
    QVERIFY(atlas->loading());
    QSignalSpy mapped(&w.window, &MainWindow::mapFinished);
    QVERIFY(w.window.startMap());
    QVERIFY(w.maps()->running());
    w.maps()->cancel();
    QVERIFY(!w.maps()->running());
    QCOMPARE(mapped.count(), 1);
    QTRY_COMPARE_WITH_TIMEOUT(w.scans, 2, 20000);
    QVERIFY(!w.maps()->running());
    // Asked while it is read: the map starts once it is shown and walks only the rest.
    atlas->load(w.window.traceHash(), false);
    QVERIFY(atlas->loading());
    QVERIFY(w.window.startMap());
    QVERIFY(w.maps()->running());
    QTRY_COMPARE_WITH_TIMEOUT(mapped.count(), 2, 120000);
    QCOMPARE(w.scans, 3);
    const std::size_t rest = w.maps()->lastReplays();
    QVERIFY2(rest > 0 && rest < *all, qPrintable(QStringLiteral("%1 of %2").arg(rest).arg(*all)));
    QVERIFY(w.window.strip()->mappedRow(0)->summary.unmapped.empty());
}

void AtlasMapsTest::unreadableFileWarnsAndTheWindowKeepsWorking()
{
    QByteArray garbage("\x1f\x8b\x08\x00");
    garbage += QByteArray(200, '\x5a');
    const QString atlas = atlasWithFiles({{QStringLiteral("broken.jsonl.gz"), garbage},
                                          {QStringLiteral("demo.jsonl.gz"), joined(m_full.header, m_full.lines)}});
    AtlasWindow w(demoSweep(QStringLiteral("0.3"), QStringLiteral("0.4"), QStringLiteral("0.05")));
    QVERIFY(w.openDemo());
    QTRY_VERIFY_WITH_TIMEOUT(w.shown(1), 20000);
    const QString status = w.status();
    QVERIFY2(status.contains(QStringLiteral("broken.jsonl.gz")), qPrintable(status));
    QVERIFY(!status.contains(QLatin1Char('\n')));
    // The good map beside it is shown, and the window sweeps and maps as ever.
    QVERIFY(w.window.strip()->mappedRow(0));
    compareWithRecords(w.window.strip()->mappedRow(0)->intervals, m_full.records);
    const std::optional<std::size_t> replays = w.map();
    QVERIFY(replays);
    QCOMPARE(*replays, std::size_t{0});

    // The only map of the trace unreadable: a warning, no map, and mapping walks every budget.
    init();
    atlasWith(QStringLiteral("broken.jsonl.gz"), garbage);
    AtlasWindow alone(demoSweep(QStringLiteral("0.3"), QStringLiteral("0.4"), QStringLiteral("0.05")));
    QVERIFY(alone.openDemo());
    QTRY_VERIFY_WITH_TIMEOUT(alone.shown(1), 20000);
    QVERIFY2(alone.status().contains(QStringLiteral("broken.jsonl.gz")), qPrintable(alone.status()));
    QVERIFY(!alone.window.strip()->mappedRow(0));
    const std::optional<std::size_t> walked = alone.map();
    QVERIFY(walked);
    QVERIFY(*walked > 0);
    QVERIFY(alone.window.strip()->mappedRow(0)->summary.unmapped.empty());
}

QTEST_MAIN(AtlasMapsTest)
#include "tst_atlas_maps.moc"
