// The trace reader: simrd's format read exactly, and every kind of bad input turned into an
// error that names the file, the line and what was expected.
#include "core/trace/trace_reader.h"

#include <QtTest>

#include <fstream>

using namespace rematlens;

namespace {

const char *const kValid = R"({"INSTRUCTION":"CONSTANT","NAME":"early"}
{"INSTRUCTION":"MEMORY","NAME":"early","MEMORY":"999"}
{"INSTRUCTION":"ANNOTATE","ANNOTATION":"START"}
{"INSTRUCTION":"CONSTANT","NAME":"w"}
{"INSTRUCTION":"MEMORY","NAME":"w","MEMORY":"64"}
{"INSTRUCTION":"CONSTANT","NAME":"x"}
{"INSTRUCTION":"MEMORY","NAME":"x","MEMORY":128}
{"INSTRUCTION":"COPY","DST":"x2","SRC":"x"}
{"INSTRUCTION":"CALL","NAME":"aten::split","ARGS":["x","w"],"RESULT":["a","b","v"],"TIME":"50"}
{"INSTRUCTION":"MEMORY","NAME":"a","MEMORY":"32"}
{"INSTRUCTION":"ALIAS","NAME":"a","ALIAS":"-1"}
{"INSTRUCTION":"MEMORY","NAME":"b","MEMORY":"16"}
{"INSTRUCTION":"ALIAS","NAME":"b","ALIAS":-1}
{"INSTRUCTION":"MEMORY","NAME":"v","MEMORY":"128"}
{"INSTRUCTION":"ALIAS","NAME":"v","ALIAS":"0"}
{"INSTRUCTION":"MUTATE","NAME":"aten::relu_","ARGS":["a"],"MUTATE":[0],"TIME":"5"}
{"INSTRUCTION":"RELEASE","NAME":"nobody"}
{"INSTRUCTION":"ANNOTATE","ANNOTATION":"BACKWARD"}
{"INSTRUCTION":"CALL","NAME":"aten::add","ARGS":["a","b"],"RESULT":["c"],"TIME":"7"}
{"INSTRUCTION":"MEMORY","NAME":"c","MEMORY":"32"}
{"INSTRUCTION":"ALIAS","NAME":"c","ALIAS":"-1"}
{"INSTRUCTION":"COPY_FROM","DST":"x2","SRC":"c"}
{"INSTRUCTION":"RELEASE","NAME":"b"}
)";

ParseError errorOf(const std::string &text)
{
    const TraceReadResult result = parseTraceText(text, "bad.log");
    if (result.ok())
        return ParseError{"", -1, "no error"};
    return result.error;
}

std::string validPrefix()
{
    return "{\"INSTRUCTION\":\"ANNOTATE\",\"ANNOTATION\":\"START\"}\n"
           "{\"INSTRUCTION\":\"CONSTANT\",\"NAME\":\"w\"}\n"
           "{\"INSTRUCTION\":\"MEMORY\",\"NAME\":\"w\",\"MEMORY\":\"64\"}\n";
}

} // namespace

class TraceReaderTest : public QObject {
    Q_OBJECT

private slots:
    void readsEveryInstruction();
    void outputsFollowFirstBindingOrder();
    void badInput_data();
    void badInput();
    void missingFile();
    void directory();
    void binaryFile();
};

void TraceReaderTest::readsEveryInstruction()
{
    const TraceReadResult result = parseTraceText(kValid, "valid.log");
    QVERIFY2(result.ok(), result.error.toString().c_str());
    const Program &p = *result.program;
    // Before START nothing is replayed.
    QCOMPARE(p.ops.size(), std::size_t{5}); // w, x, split, relu_, add
    QCOMPARE(p.tensors.size(), std::size_t{7});
    const OpInfo &split = p.ops[2];
    QCOMPARE(split.cost, Cost{50});
    QCOMPARE(split.outputCount, 3u);
    QCOMPARE(split.totalSize, Bytes{48}); // the alias counts 0
    const TensorInfo &v = p.tensors[split.firstOutput + 2];
    QVERIFY(v.isAlias);
    QCOMPARE(v.storage, p.tensors[p.ops[1].firstOutput].storage); // shares x's storage
    // MUTATE makes "a$" with a's storage size, a new storage.
    const OpInfo &relu = p.ops[3];
    QCOMPARE(p.tensors[relu.firstOutput].name, std::string("a$"));
    QCOMPARE(p.tensors[relu.firstOutput].size, Bytes{32});
    QVERIFY(!p.ops[2].isBackward);
    QVERIFY(p.ops[4].isBackward);
    // x's storage compute grows by the split's cost when the alias v is created.
    QCOMPARE(v.storageComputeDelta, Cost{50});
}

void TraceReaderTest::outputsFollowFirstBindingOrder()
{
    const TraceReadResult result = parseTraceText(kValid, "valid.log");
    QVERIFY(result.ok());
    const Program &p = *result.program;
    std::vector<std::string> pinned;
    for (const Step &step : p.schedule)
        if (step.kind == StepKind::Pin && step.line == 0)
            pinned.push_back(p.tensors[step.id].name);
    // names in first-bound order: w, x, x2 (-> c), a (-> a$), b (released), v, c
    const std::vector<std::string> expected{"w", "x", "c", "a$", "v", "c"};
    QCOMPARE(pinned, expected);
}

void TraceReaderTest::badInput_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("expected");
    const QString prefix = QString::fromStdString(validPrefix());
    QTest::newRow("empty file") << QString() << 0 << QStringLiteral("empty");
    QTest::newRow("malformed line") << prefix + QStringLiteral("{\"INSTRUCTION\": \"CALL\",\n") << 4
                                    << QStringLiteral("expected one JSON object");
    QTest::newRow("not an object") << QStringLiteral("[1,2]\n") << 1 << QStringLiteral("JSON object");
    QTest::newRow("no instruction field") << QStringLiteral("{\"NAME\":\"x\"}\n") << 1 << QStringLiteral("\"INSTRUCTION\"");
    QTest::newRow("unknown instruction") << prefix + QStringLiteral("{\"INSTRUCTION\":\"FROB\",\"NAME\":\"x\"}\n") << 4
                                         << QStringLiteral("unknown instruction \"FROB\"");
    QTest::newRow("undefined name")
        << prefix + QStringLiteral("{\"INSTRUCTION\":\"CALL\",\"NAME\":\"f\",\"ARGS\":[\"nope\"],\"RESULT\":[\"y\"],\"TIME\":\"1\"}\n")
        << 4 << QStringLiteral("undefined name \"nope\"");
    QTest::newRow("negative size")
        << QStringLiteral("{\"INSTRUCTION\":\"CONSTANT\",\"NAME\":\"w\"}\n{\"INSTRUCTION\":\"MEMORY\",\"NAME\":\"w\",\"MEMORY\":\"-5\"}\n")
        << 2 << QStringLiteral("non-negative MEMORY");
    QTest::newRow("overflowing size")
        << QStringLiteral("{\"INSTRUCTION\":\"CONSTANT\",\"NAME\":\"w\"}\n{\"INSTRUCTION\":\"MEMORY\",\"NAME\":\"w\",\"MEMORY\":\"99999999999999999999\"}\n")
        << 2 << QStringLiteral("fits in 64 bits");
    QTest::newRow("sizes overflowing together")
        << prefix + QStringLiteral("{\"INSTRUCTION\":\"CONSTANT\",\"NAME\":\"v\"}\n{\"INSTRUCTION\":\"MEMORY\",\"NAME\":\"v\",\"MEMORY\":\"9000000000000000000\"}\n")
        << 4 << QStringLiteral("62 bits");
    QTest::newRow("size not a number")
        << QStringLiteral("{\"INSTRUCTION\":\"CONSTANT\",\"NAME\":\"w\"}\n{\"INSTRUCTION\":\"MEMORY\",\"NAME\":\"w\",\"MEMORY\":\"12kB\"}\n")
        << 2 << QStringLiteral("integer");
    QTest::newRow("truncated call")
        << prefix + QStringLiteral("{\"INSTRUCTION\":\"CALL\",\"NAME\":\"f\",\"ARGS\":[\"w\"],\"RESULT\":[\"y\"],\"TIME\":\"1\"}\n{\"INSTRUCTION\":\"MEMORY\",\"NAME\":\"y\",\"MEMORY\":\"4\"}\n")
        << 5 << QStringLiteral("expected ALIAS for result \"y\"");
    QTest::newRow("constant without memory") << QStringLiteral("{\"INSTRUCTION\":\"CONSTANT\",\"NAME\":\"w\"}\n") << 1
                                             << QStringLiteral("expected MEMORY");
    QTest::newRow("alias out of range")
        << prefix + QStringLiteral("{\"INSTRUCTION\":\"CALL\",\"NAME\":\"f\",\"ARGS\":[\"w\"],\"RESULT\":[\"y\"],\"TIME\":\"1\"}\n{\"INSTRUCTION\":\"MEMORY\",\"NAME\":\"y\",\"MEMORY\":\"0\"}\n{\"INSTRUCTION\":\"ALIAS\",\"NAME\":\"y\",\"ALIAS\":\"3\"}\n")
        << 6 << QStringLiteral("argument index");
    QTest::newRow("stray memory") << prefix + QStringLiteral("{\"INSTRUCTION\":\"MEMORY\",\"NAME\":\"w\",\"MEMORY\":\"4\"}\n") << 4
                                  << QStringLiteral("unexpected MEMORY");
    QTest::newRow("release past zero")
        << prefix + QStringLiteral("{\"INSTRUCTION\":\"RELEASE\",\"NAME\":\"w\"}\n{\"INSTRUCTION\":\"RELEASE\",\"NAME\":\"w\"}\n") << 5
        << QStringLiteral("no references left");
    QTest::newRow("copy of released")
        << prefix + QStringLiteral("{\"INSTRUCTION\":\"RELEASE\",\"NAME\":\"w\"}\n{\"INSTRUCTION\":\"COPY\",\"DST\":\"z\",\"SRC\":\"w\"}\n") << 5
        << QStringLiteral("already released");
    QTest::newRow("rebound result")
        << prefix + QStringLiteral("{\"INSTRUCTION\":\"COPY\",\"DST\":\"w\",\"SRC\":\"w\"}\n") << 4 << QStringLiteral("already bound");
    QTest::newRow("mutate nothing") << prefix + QStringLiteral("{\"INSTRUCTION\":\"MUTATE\",\"NAME\":\"f_\",\"ARGS\":[\"w\"],\"MUTATE\":[],\"TIME\":\"1\"}\n")
                                    << 4 << QStringLiteral("at least one argument index");
    QTest::newRow("mutate index") << prefix + QStringLiteral("{\"INSTRUCTION\":\"MUTATE\",\"NAME\":\"f_\",\"ARGS\":[\"w\"],\"MUTATE\":[1],\"TIME\":\"1\"}\n")
                                  << 4 << QStringLiteral("MUTATE indices");
}

void TraceReaderTest::badInput()
{
    QFETCH(QString, text);
    QFETCH(int, line);
    QFETCH(QString, expected);
    const ParseError error = errorOf(text.toStdString());
    QCOMPARE(error.file, std::string("bad.log"));
    QCOMPARE(error.line, line);
    QVERIFY2(QString::fromStdString(error.message).contains(expected), error.message.c_str());
    QVERIFY(QString::fromStdString(error.toString()).startsWith(QStringLiteral("bad.log")));
}

void TraceReaderTest::missingFile()
{
    const TraceReadResult result = readTraceFile("/nonexistent/trace.log");
    QVERIFY(!result.ok());
    QCOMPARE(result.error.file, std::string("/nonexistent/trace.log"));
    QVERIFY(result.error.message.find("cannot open") != std::string::npos);
}

void TraceReaderTest::directory()
{
    const TraceReadResult result = readTraceFile(QDir::tempPath().toStdString());
    QVERIFY(!result.ok());
    QVERIFY(result.error.message.find("directory") != std::string::npos);
}

void TraceReaderTest::binaryFile()
{
    QTemporaryFile file;
    QVERIFY(file.open());
    QByteArray junk;
    for (int i = 0; i < 4096; ++i)
        junk.append(static_cast<char>((i * 7919) % 256));
    file.write(junk);
    file.close();
    const TraceReadResult result = readTraceFile(file.fileName().toStdString());
    QVERIFY(!result.ok());
    QCOMPARE(result.error.line, 1);
}

QTEST_GUILESS_MAIN(TraceReaderTest)
#include "tst_trace_reader.moc"
