// The side file of a captured trace: read beside the trace, its roles turned into the split of
// the baseline memory, shapes named for the timeline, and bad files refused with the reason.
#include "core/sim/baseline.h"
#include "core/trace/capture_side_file.h"
#include "core/trace/memory_split.h"
#include "core/trace/trace_reader.h"
#include "core/analysis/inspected_run.h"
#include "views/tables/trace_summary_model.h"
#include "views/timeline/timeline_view.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace rematlens;

namespace {

std::string capturePath(const char *file)
{
    return std::string(REMATLENS_TEST_DATA) + "/capture/" + file;
}

QStringList summaryRows(const TraceSummaryModel &model)
{
    QStringList rows;
    for (int row = 0; row < model.rowCount(); ++row)
        rows << model.index(row, 0).data().toString() + QStringLiteral(": ") + model.index(row, 1).data().toString();
    return rows;
}

std::string writeFile(const QTemporaryDir &dir, const std::string &text)
{
    const std::string path = dir.filePath(QStringLiteral("bad.meta.json")).toStdString();
    std::ofstream(path) << text;
    return path;
}

const char *const kMinimal = R"({"format":"rematlens-capture-meta/1","torch":"1.13","time":"unit",
 "parameters":["x0"],"buffers":[],"gradients":["x3"],"optimizer_state":[],"inputs":["x1"],
 "labels":{"x0":"fc.weight"},
 "tensors":{"x0":{"shape":[16,8],"dtype":"float32"},"x1":{"shape":[4,8],"dtype":"float64"},
            "x2":{"shape":[],"dtype":"int64"},"x3":{"shape":[16,8],"dtype":"float32"}}})";

} // namespace

class TestCaptureSideFile : public QObject {
    Q_OBJECT

private slots:
    void sideFileSitsBesideTheTrace()
    {
        QCOMPARE(captureSideFilePath("runs/resnet18-b16.log"), std::string("runs/resnet18-b16.meta.json"));
        QCOMPARE(captureSideFilePath("runs/trace.jsonl"), std::string("runs/trace.jsonl.meta.json"));
    }

    void absentFileIsNoError()
    {
        const CaptureSideFileResult result = readCaptureSideFile(capturePath("no-such.meta.json"));
        QVERIFY(!result.sideFile);
        QVERIFY(result.error.message.empty());
    }

    void readsTheCapturedRoles()
    {
        const CaptureSideFileResult result = readCaptureSideFile(capturePath("optimizer-step.meta.json"));
        QVERIFY2(result.sideFile, result.error.toString().c_str());
        const CaptureSideFile &side = *result.sideFile;
        QCOMPARE(side.timeMode, std::string("unit"));
        QCOMPARE(side.parameters.size(), std::size_t{4});
        QCOMPARE(side.gradients.size(), std::size_t{4});
        QCOMPARE(side.optimizerState.size(), std::size_t{12});
        QCOMPARE(side.inputs.size(), std::size_t{2});
        QCOMPARE(side.describe("x0"), std::string("16\u00d78 float32 (0.weight)"));
    }

    void shapesAndBytes()
    {
        QTemporaryDir dir;
        const CaptureSideFileResult result = readCaptureSideFile(writeFile(dir, kMinimal));
        QVERIFY2(result.sideFile, result.error.toString().c_str());
        QCOMPARE(result.sideFile->bytesOf("x0"), std::int64_t{16 * 8 * 4});
        QCOMPARE(result.sideFile->bytesOf("x1"), std::int64_t{4 * 8 * 8});
        QCOMPARE(result.sideFile->bytesOf("x2"), std::int64_t{8});
        QCOMPARE(result.sideFile->bytesOf("unknown"), std::int64_t{0});
        QCOMPARE(result.sideFile->describe("x2"), std::string("scalar int64"));
        QCOMPARE(result.sideFile->describe("unknown"), std::string());
    }

    void splitsTheBaselineOfACapturedMlp()
    {
        const TraceReadResult trace = readTraceFile(capturePath("mlp.log"));
        QVERIFY(trace.ok());
        const CaptureSideFileResult side = readCaptureSideFile(capturePath("mlp.meta.json"));
        QVERIFY(side.sideFile);
        const Baseline baseline = computeBaseline(*trace.program);
        const MemorySplit split = splitMemory(*side.sideFile, baseline.memory);
        const Bytes weights = (16 * 8 + 16 + 4 * 16 + 4) * 4; // two Linear layers
        QCOMPARE(split.weights, weights);
        QCOMPARE(split.gradients, weights);
        QCOMPARE(split.optimizerState, Bytes{0});
        QCOMPARE(split.inputs, Bytes{4 * 8 * 4 + 4 * 8}); // float32 images, int64 labels
        QCOMPARE(split.baseline, baseline.memory);
        QCOMPARE(split.activations, baseline.memory - 2 * weights - split.inputs);
        QCOMPARE(split.resident(), 2 * weights);
        QVERIFY(split.residentRatio() > 0.5 && split.residentRatio() < 1.0); // a tiny batch: weights dominate
    }

    void summaryShowsTheSplitAndWhatItRulesOut()
    {
        const TraceReadResult trace = readTraceFile(capturePath("mlp.log"));
        QVERIFY(trace.ok());
        TraceSummary summary;
        summary.name = QStringLiteral("mlp.log");
        summary.baseline = computeBaseline(*trace.program);
        TraceSummaryModel model;
        model.setSummary(summary);
        QVERIFY(summaryRows(model).filter(QStringLiteral("Weights")).isEmpty()); // no side file, no split

        const auto side = readCaptureSideFile(capturePath("mlp.meta.json")).sideFile;
        QVERIFY(side);
        summary.sideFile = std::make_shared<const CaptureSideFile>(*side);
        summary.memorySplit = splitMemory(*side, summary.baseline.memory);
        model.setSummary(summary);
        const QStringList rows = summaryRows(model);
        const Bytes weights = summary.memorySplit->weights;
        QVERIFY2(rows.contains(QStringLiteral("Weights: %1, %2 %").arg(TraceSummaryModel::formatBytes(weights),
                     QString::number(100.0 * double(weights) / double(summary.baseline.memory), 'f', 1))),
                 qPrintable(rows.join(QLatin1Char('\n'))));
        const QStringList floor = rows.filter(QStringLiteral("Resident floor"));
        QCOMPARE(floor.size(), 1);
        QVERIFY2(floor[0].contains(QStringLiteral("most of the memory"))
                     && floor[0].contains(QString::number(summary.memorySplit->residentRatio(), 'f', 2)),
                 qPrintable(floor[0]));
        QVERIFY(!rows.filter(QStringLiteral("Captured with: PyTorch 1.13")).isEmpty());

        summary.sideFile.reset();
        summary.memorySplit.reset();
        summary.sideFileProblem = QStringLiteral("mlp.meta.json: expected the field \"parameters\"");
        model.setSummary(summary);
        QVERIFY(summaryRows(model).contains(QStringLiteral("Side file: ") + summary.sideFileProblem));
    }

    void timelineHoverNamesTheShape()
    {
        const TraceReadResult trace = readTraceFile(capturePath("cnn-batchnorm.log"));
        QVERIFY(trace.ok());
        const auto side = std::make_shared<const CaptureSideFile>(
            *readCaptureSideFile(capturePath("cnn-batchnorm.meta.json")).sideFile);
        const Baseline baseline = computeBaseline(*trace.program);
        RunRequest request;
        request.ratio = 1.0;
        request.config.budget = budgetForRatio(baseline, 1.0);
        request.config.rematLimit = rematLimitFor(baseline, 2.0);
        TimelineView view;
        view.resize(900, 400);
        view.setRuns(trace.program, inspectRun(*trace.program, request), nullptr);
        const auto &samples = view.plot().run->recording.samples;
        const auto &xs = view.plot().track->xs();
        std::size_t convolution = samples.size();
        for (std::size_t i = 0; i < samples.size() && convolution == samples.size(); ++i) {
            const auto tensor = view.plot().tensorOfStep(samples[i].step);
            if (tensor && trace.program->ops[trace.program->tensors[*tensor].op].name == "aten::convolution")
                convolution = i;
        }
        QVERIFY(convolution < samples.size());
        const std::string name = trace.program->tensors[*view.plot().tensorOfStep(samples[convolution].step)].name;
        const QString expected = QString::fromStdString(name) + QStringLiteral(": 2\u00d74\u00d78\u00d78 float32");
        QVERIFY(!view.hoverText(xs[convolution], 0).contains(expected));
        view.setSideFile(side);
        const QString text = view.hoverText(xs[convolution], 0);
        QVERIFY2(text.contains(expected), qPrintable(text));
    }

    void badFilesAreRefusedWithTheReason_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("not json") << QStringLiteral("{oops") << QStringLiteral("expected one JSON object");
        QTest::newRow("other format") << QStringLiteral(R"({"format":"something-else"})")
                                      << QStringLiteral("expected \"format\" to be \"rematlens-capture-meta/1\"");
        QTest::newRow("missing roles")
            << QStringLiteral(R"({"format":"rematlens-capture-meta/1","torch":"1","time":"unit"})")
            << QStringLiteral("expected the field \"parameters\"");
        QString negative = QString::fromUtf8(kMinimal);
        negative.replace(QStringLiteral("[4,8]"), QStringLiteral("[4,-8]"));
        QTest::newRow("negative size") << negative
                                       << QStringLiteral("expected the shape of tensor \"x1\" to hold non-negative integers");
    }

    void badFilesAreRefusedWithTheReason()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const std::string path = writeFile(dir, text.toStdString());
        const CaptureSideFileResult result = readCaptureSideFile(path);
        QVERIFY(!result.sideFile);
        QCOMPARE(result.error.file, path);
        QVERIFY2(QString::fromStdString(result.error.message).contains(expected), result.error.message.c_str());
    }
};

QTEST_MAIN(TestCaptureSideFile)
#include "tst_capture_side_file.moc"
