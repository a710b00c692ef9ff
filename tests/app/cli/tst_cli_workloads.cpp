// The workload subcommands end to end: `matmul` and `llm` (with --sweep), their JSON keys,
// the worked examples of docs/MODEL.md §9 through the command line, and exit status 2 on bad input.
#include "tests/support/cli_run.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <QProcess>
#include <QTest>

#include <cmath>

namespace test = ridgepoint::test;

namespace {

using test::Run;
using test::runCli;

QJsonObject json(const Run &run)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(run.out, &error);
    if (error.error != QJsonParseError::NoError)
        qWarning("not JSON (%s): %s", qPrintable(error.errorString()), run.out.constData());
    return document.object();
}

bool close(double a, double b, double relative = 1e-9)
{
    return std::fabs(a - b) <= relative * std::max(std::fabs(a), std::fabs(b));
}

} // namespace

class TestCliWorkloads : public QObject
{
    Q_OBJECT

private slots:
    void refusesCountsThatOverflow_data();
    void refusesCountsThatOverflow();
    void matmulPrintsTheIssueKeys();
    void matmulReproducesSection6_data();
    void matmulReproducesSection6();
    void shardedMatmulReportsCriticalD();
    void tiledMatmulReportsTiles();
    void matmulTableForPeople();
    void matmulSweepReportsTheCrossing();
    void llmPrintsOperatorPointsAndTotals();
    void llmPrecisionModeNamesItsRoof();
    void llmSweepOverBatch();
    void llmAnalysesAMeasuredGeneration();
    void exitsTwoOnBadInput_data();
    void exitsTwoOnBadInput();
};

void TestCliWorkloads::matmulPrintsTheIssueKeys()
{
    const Run run = runCli(
        { "matmul", "--hardware", "h100", "--b", "512", "--d", "4096", "--f", "4096", "--json" });
    QCOMPARE(run.status, 0);
    const QJsonObject o = json(run);
    for (const char *key : { "flops", "bytes", "intensity", "ridge_intensity", "compute_ceiling",
             "attainable", "bound", "t_math", "t_mem", "t_min", "t_max", "critical_batch",
             "critical_batch_approx" })
        QVERIFY2(o.contains(key), key);
    QVERIFY(!o.contains("network_bytes"));
    QCOMPARE(o["flops"].toDouble(), 2.0 * 512 * 4096 * 4096);
    QCOMPARE(
        o["bytes"].toObject()["HBM"].toDouble(), 2.0 * (512 * 4096 + 4096 * 4096 + 512 * 4096));
    QCOMPARE(o["compute_ceiling"].toString(), QString("BF16 tensor"));
    QVERIFY(close(o["ridge_intensity"].toDouble(), 989e12 / 3.35e12));
    QCOMPARE(o["bound"].toString(), QString("compute"));
    // Independent: smallest B with 2BDF/(2BD+2DF+2BF) >= 295.22 at D = F = 4096.
    const double r = 989e12 / 3.35e12;
    QCOMPARE(o["critical_batch"].toInt(),
        static_cast<int>(std::ceil(r * 4096.0 * 4096.0 / (4096.0 * 4096.0 - r * 2 * 4096.0))));
    QVERIFY(close(o["critical_batch_approx"].toDouble(), r));
}

void TestCliWorkloads::matmulReproducesSection6_data()
{
    QTest::addColumn<QStringList>("extra");
    QTest::addColumn<QString>("ceiling");
    QTest::addColumn<double>("ridge");
    QTest::addColumn<double>("approx");
    QTest::newRow("bf16") << QStringList {} << "BF16 MXU" << 1.97e14 / 8.2e11 << 1.97e14 / 8.2e11;
    QTest::newRow("6.1 int8 at 8.1e11")
        << QStringList { "--quant", "int8", "--bandwidth", "8.1e11" } << "INT8 MXU"
        << 3.94e14 / 8.1e11 << 3.94e14 / 8.1e11 / 2;
    QTest::newRow("6.2 w8a16") << QStringList { "--quant", "w8a16" } << "BF16 MXU"
                               << 1.97e14 / 8.2e11 << 1.97e14 / 8.2e11 / 2;
}

void TestCliWorkloads::matmulReproducesSection6()
{
    QFETCH(QStringList, extra);
    QFETCH(QString, ceiling);
    QFETCH(double, ridge);
    QFETCH(double, approx);
    const Run run = runCli(QStringList { "matmul", "--hardware", "TPU v5e", "--b", "64", "--d",
                               "65536", "--f", "65536", "--json" }
        + extra);
    QCOMPARE(run.status, 0);
    const QJsonObject o = json(run);
    QCOMPARE(o["compute_ceiling"].toString(), ceiling);
    QVERIFY(close(o["ridge_intensity"].toDouble(), ridge));
    QVERIFY(close(o["critical_batch_approx"].toDouble(), approx));
    QVERIFY(o["critical_batch"].toDouble() >= approx);
    QVERIFY(o["critical_batch"].toDouble() < approx * 1.02);
}

void TestCliWorkloads::shardedMatmulReportsCriticalD()
{
    const Run run = runCli({ "matmul", "--hardware", "v5e", "--b", "1024", "--d", "8192", "--f",
        "8192", "--shards", "2", "--network-bandwidth", "45 GB/s", "--json" });
    QCOMPARE(run.status, 0);
    const QJsonObject o = json(run);
    for (const char *key : { "network_bytes", "t_network", "critical_d" })
        QVERIFY2(o.contains(key), key);
    QCOMPARE(o["flops"].toDouble(), 1024.0 * 8192 * 8192); // BDF per chip
    QCOMPARE(o["network_bytes"].toDouble(), 2.0 * 1024 * 8192); // 2BF
    QCOMPARE(o["bytes"].toObject()["ICI"].toDouble(), 2.0 * 1024 * 8192);
    QVERIFY(close(o["critical_d"].toDouble(), 2 * 1.97e14 / 4.5e10));
    QCOMPARE(std::floor(o["critical_d"].toDouble()), 8755.0);
    QVERIFY(close(o["t_network"].toDouble(), 2.0 * 1024 * 8192 / 4.5e10));
    QCOMPARE(o["limiting_ceiling"].toString(), QString("ICI (per chip)"));
    // Without the book's one-link figure, the preset's whole-chip ICI roof: 200 GB/s each way.
    const Run chip = runCli({ "matmul", "--hardware", "v5e", "--b", "1024", "--d", "8192", "--f",
        "8192", "--shards", "2", "--json" });
    QCOMPARE(chip.status, 0);
    QVERIFY(close(json(chip)["critical_d"].toDouble(), 2 * 1.97e14 / 2e11));

    const Run custom = runCli({ "matmul", "--hardware", "h100", "--b", "1024", "--d", "8192", "--f",
        "8192", "--shards", "2", "--network", "PCIe", "--network-bandwidth", "64 GB/s", "--json" });
    QCOMPARE(custom.status, 0);
    QCOMPARE(json(custom)["network_ceiling"].toString(), QString("PCIe Gen5 x16"));
    QVERIFY(close(json(custom)["critical_d"].toDouble(), 2 * 989e12 / 64e9));
}

void TestCliWorkloads::tiledMatmulReportsTiles()
{
    const Run run = runCli({ "matmul", "--hardware", "h100", "--b", "4096", "--d", "4096", "--f",
        "4096", "--tile", "128,64,256", "--json" });
    QCOMPARE(run.status, 0);
    const QJsonObject o = json(run);
    QCOMPARE(o["tiles"].toObject()["m"].toInt(), 32);
    QCOMPARE(o["tiles"].toObject()["k"].toInt(), 64);
    QCOMPARE(o["tiles"].toObject()["n"].toInt(), 16);
    QVERIFY(close(o["tile_intensity_approx"].toDouble(), 128.0 * 256 / (128 + 256)));
}

void TestCliWorkloads::matmulTableForPeople()
{
    const Run run = runCli({ "matmul", "--peak", "100 TFLOP/s", "--bandwidth", "2 TB/s", "--b",
        "16", "--d", "64", "--f", "64" });
    QCOMPARE(run.status, 0);
    const QString text = QString::fromUtf8(run.out);
    QVERIFY2(text.contains("critical batch (exact)"), run.out.constData());
    QVERIFY(text.contains("critical batch (large D, F)"));
    QVERIFY(text.contains("never")); // I -> 2·64·64/(2·64+2·64) = 32 < ridge 50
    // A one-ceiling machine from --peak/--bandwidth stands for the workload's precision.
    const Run quantized = runCli({ "matmul", "--peak", "100 TFLOP/s", "--bandwidth", "2 TB/s",
        "--b", "16", "--d", "64", "--f", "64", "--quant", "int8", "--json" });
    QCOMPARE(quantized.status, 0);
    QCOMPARE(json(quantized)["ridge_intensity"].toDouble(), 50.0);
}

void TestCliWorkloads::matmulSweepReportsTheCrossing()
{
    const Run run = runCli({ "matmul", "--hardware", "v5e", "--d", "8192", "--f", "8192", "--sweep",
        "b=250:260:+1", "--json" });
    QCOMPARE(run.status, 0);
    const QJsonObject o = json(run);
    QCOMPARE(o["parameter"].toString(), QString("b"));
    const QJsonArray points = o["points"].toArray();
    QCOMPARE(points.size(), 11);
    QCOMPARE(points.first().toObject()["value"].toDouble(), 250.0);
    QVERIFY(points.first().toObject().contains("limiting_ceiling")); // analyze's point keys
    const QJsonArray crossings = o["crossings"].toArray();
    QCOMPARE(crossings.size(), 1);
    QCOMPARE(crossings[0].toObject()["before"].toDouble(), 255.0);
    QCOMPARE(crossings[0].toObject()["after"].toDouble(), 256.0);
    QCOMPARE(crossings[0].toObject()["to"].toString(), QString("compute"));

    const Run table = runCli(
        { "matmul", "--hardware", "v5e", "--d", "8192", "--f", "8192", "--sweep", "b=1:1024" });
    QCOMPARE(table.status, 0);
    QVERIFY2(table.out.contains("crossing: memory -> compute between b = 128 and 256"),
        table.out.constData());
}

void TestCliWorkloads::llmPrintsOperatorPointsAndTotals()
{
    const Run run = runCli({ "llm", "--hardware", "h100", "--model", "llama-2-7b", "--phase",
        "decode", "--seq", "1024", "--batch", "1", "--json" });
    QCOMPARE(run.status, 0);
    const QJsonObject o = json(run);
    const QJsonArray points = o["points"].toArray();
    QStringList names;
    for (const auto &p : points)
        names << p.toObject()["name"].toString();
    // Every operator of a layer in the order it runs (docs/WORKLOADS.md), then the head.
    QCOMPARE(names,
        QStringList({ "embedding", "attention norm", "QKV projection", "rotary embedding",
            "KV-cache write", "attention score", "softmax", "attention value", "output projection",
            "attention residual", "FFN norm", "FFN up", "FFN gate", "FFN activation", "FFN down",
            "FFN residual", "final norm", "LM head" }));
    for (const char *key : { "name", "flops", "levels", "compute_ceiling", "t_math", "t_min",
             "t_max", "attainable", "bound", "limiting_ceiling" })
        QVERIFY2(points[2].toObject().contains(key), key);
    const double qkv
        = points[2].toObject()["levels"].toArray()[0].toObject()["intensity"].toDouble();
    QVERIFY(qkv > 0.99 && qkv < 1.0);
    QVERIFY(o["total"].toObject().contains("flops"));
    QCOMPARE(o["bound"].toString(), QString("memory"));
    QVERIFY(o["estimated_seconds"].toDouble() > 0);
    QVERIFY(o["kv_read_bytes"].toDouble() > 0);

    const Run int8 = runCli({ "llm", "--hardware", "h100", "--model", "llama-2-7b", "--phase",
        "decode", "--seq", "1024", "--weights", "int8", "--json" });
    QCOMPARE(int8.status, 0);
    const double qkv8 = json(int8)["points"]
                            .toArray()[2]
                            .toObject()["levels"]
                            .toArray()[0]
                            .toObject()["intensity"]
                            .toDouble();
    QVERIFY(qkv8 / qkv > 1.95 && qkv8 / qkv <= 2.0);
}

void TestCliWorkloads::llmPrecisionModeNamesItsRoof()
{
    // fp8 on the H100: the FP8 tensor roof, said in the text output.
    const Run run = runCli({ "llm", "--hardware", "h100", "--model", "mixtral-8x7b", "--phase",
        "decode", "--seq", "4096", "--precision", "fp8" });
    QCOMPARE(run.status, 0);
    QVERIFY2(run.out.contains("compute roof: FP8 tensor (fp8: w8a8 fp8)"), run.out.constData());
    QVERIFY(run.out.contains("active-parameter ridge: the routed experts (2 of 8 a token)"));
    const Run both = runCli({ "llm", "--hardware", "h100", "--model", "mixtral-8x7b", "--phase",
        "decode", "--seq", "4096", "--precision", "fp8", "--weights", "int8" });
    QCOMPARE(both.status, 2);
    QVERIFY(both.err.contains("not both"));
}

void TestCliWorkloads::llmSweepOverBatch()
{
    const Run run = runCli({ "llm", "--hardware", "h100", "--model", "llama-3-8b", "--phase",
        "decode", "--seq", "2048", "--sweep", "batch=1:1024", "--json" });
    QCOMPARE(run.status, 0);
    const QJsonObject o = json(run);
    QCOMPARE(o["points"].toArray().size(), 11);
    double last = 0;
    for (const auto &p : o["points"].toArray()) {
        const double i = p.toObject()["levels"].toArray()[0].toObject()["intensity"].toDouble();
        QVERIFY(i > last);
        last = i;
    }
}

void TestCliWorkloads::llmAnalysesAMeasuredGeneration()
{
    const Run run = runCli({ "llm", "--hardware", "h100", "--model", "mistral-7b", "--prompt-len",
        "128", "--gen-tokens", "100", "--measured-time", "2.5 s", "--json" });
    QCOMPARE(run.status, 0);
    const QJsonObject o = json(run);
    QCOMPARE(o["bottleneck"].toString(), QString("memory-bound"));
    QCOMPARE(o["tokens_per_second"].toDouble(), 40.0);
    QCOMPARE(o["point"].toObject()["seconds"].toDouble(), 2.5);
}

void TestCliWorkloads::exitsTwoOnBadInput_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    const QStringList mm { "matmul", "--hardware", "v5e", "--b", "8", "--d", "8", "--f", "8" };
    QTest::newRow("matmul missing F") << QStringList { "matmul", "--hardware", "v5e", "--b", "8",
        "--d", "8" } << "--f is missing";
    QTest::newRow("matmul negative B") << QStringList { "matmul", "--hardware", "v5e", "--b", "-8",
        "--d", "8", "--f", "8" } << "--b: expected a positive integer";
    QTest::newRow("matmul unknown quant") << mm + QStringList { "--quant", "int3" } << "--quant";
    QTest::newRow("matmul unknown dtype") << mm + QStringList { "--dtype", "int4" } << "--dtype";
    QTest::newRow("matmul missing ceiling") << QStringList { "matmul", "--hardware", "h100", "--b",
        "8", "--d", "8", "--f", "8", "--quant", "int8", "--compute", "nonesuch" }
                                            << "no compute ceiling named";
    QTest::newRow("matmul bad tile") << mm + QStringList { "--tile", "128,128" } << "--tile";
    QTest::newRow("matmul uneven shards") << QStringList { "matmul", "--hardware", "v5e", "--b",
        "8", "--d", "9", "--f", "8", "--shards", "2" }
                                          << "does not split evenly";
    QTest::newRow("matmul bad sweep")
        << mm + QStringList { "--sweep", "q=1:8" } << "unknown parameter";
    QTest::newRow("llm unknown model") << QStringList { "llm", "--hardware", "h100", "--model",
        "gpt-9", "--phase", "decode", "--seq", "8" }
                                       << "no model named";
    QTest::newRow("llm bad phase") << QStringList { "llm", "--hardware", "h100", "--model",
        "llama-3-8b", "--phase", "train", "--seq", "8" }
                                   << "--phase";
    QTest::newRow("llm missing ceiling") << QStringList { "llm", "--hardware", "t4", "--model",
        "llama-3-8b", "--phase", "decode", "--seq", "8" }
                                         << "has no bf16 compute ceiling";
    QTest::newRow("llm zero batch") << QStringList { "llm", "--hardware", "h100", "--model",
        "llama-3-8b", "--phase", "decode", "--seq", "8", "--batch", "0" }
                                    << "--batch";
}

void TestCliWorkloads::exitsTwoOnBadInput()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const Run run = runCli(arguments);
    QCOMPARE(run.status, 2);
    QVERIFY2(QString::fromUtf8(run.err).contains(message), run.err.constData());
    QVERIFY(run.out.isEmpty());
}

void TestCliWorkloads::refusesCountsThatOverflow_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    const QStringList matmul { "matmul", "--hardware", "h100", "--d", "1024", "--f", "1024" };
    const QStringList generation { "llm", "--model", "llama-2-7b", "--hardware", "h100",
        "--measured-time", "1 s" };
    QTest::newRow("sweep to 2^63 - 1")
        << matmul + QStringList { "--sweep", "b=1:9223372036854775807:x2" }
        << "--sweep: b = 9.2233720368547758e+18 does not fit a 64-bit count";
    QTest::newRow("prompt + generated overflow")
        << generation + QStringList { "--prompt-len", "9223372036854775807", "--gen-tokens", "2" }
        << "--prompt-len + --gen-tokens: 9223372036854775807 + 2 does not fit a 64-bit count";
    QTest::newRow("prompt + generated overflow, both huge")
        << generation
            + QStringList { "--prompt-len", "4611686018427387904", "--gen-tokens",
                  "4611686018427387904" }
        << "--prompt-len + --gen-tokens: 4611686018427387904 + 4611686018427387904 does not fit";
    QTest::newRow("generated tokens beyond the model's steps")
        << generation + QStringList { "--prompt-len", "10", "--gen-tokens", "1000001" }
        << "--gen-tokens: 1000001 is more than 1000000 generated tokens";
}

// User-given counts are checked in 64-bit arithmetic before any model adds or casts them
// (2^63 - 1 + 2 was undefined behaviour even though the value was refused later).
void TestCliWorkloads::refusesCountsThatOverflow()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const Run run = runCli(arguments);
    QCOMPARE(run.status, 2);
    QVERIFY2(run.err.contains(message.toUtf8()), run.err.constData());
}

QTEST_GUILESS_MAIN(TestCliWorkloads)
#include "tst_cli_workloads.moc"
