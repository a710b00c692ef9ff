// `ridgepoint llm` with --tp/--ep/--pp, --sweep … --operators and --render, end to end: the
// all-reduce points on the NVLink roof of the H100, the "parallel" JSON object, one trajectory
// per operator, a picture written, and exit status 2 on impossible degrees.
#include "tests/support/cli_run.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

namespace test = ridgepoint::test;

namespace {

using test::Run;
using test::runCli;

QJsonObject json(const Run &run)
{
    return QJsonDocument::fromJson(run.out).object();
}

bool close(double a, double b, double relative = 1e-9)
{
    return std::fabs(a - b) <= relative * std::max(std::fabs(a), std::fabs(b));
}

} // namespace

class TestCliLlmParallel : public QObject
{
    Q_OBJECT

private slots:
    void allReduceOnTheNvlinkRoof();
    void operatorTrajectories();
    void rendersAPicture();
    void refusesImpossibleDegrees_data();
    void refusesImpossibleDegrees();
};

void TestCliLlmParallel::allReduceOnTheNvlinkRoof()
{
    const Run run = runCli({ "llm", "--hardware", "H100", "--model", "llama-2-7b", "--phase",
        "decode", "--seq", "1024", "--batch", "8", "--tp", "2", "--json" });
    QCOMPARE(run.status, 0);
    const QJsonObject o = json(run);
    QCOMPARE(o["tp"].toInt(), 2);
    QCOMPARE(o["parallel"].toObject()["link_level"].toString(), QString("NVLink"));
    int allReduces = 0;
    for (const auto &value : o["points"].toArray()) {
        const QJsonObject p = value.toObject();
        if (!p["name"].toString().startsWith("TP all-reduce"))
            continue;
        ++allReduces;
        const QJsonObject level = p["levels"].toArray()[0].toObject();
        QCOMPARE(level["level"].toString(), QString("NVLink"));
        QCOMPARE(p["limiting_ceiling"].toString(), QString("NVLink 4"));
        // 2·(1/2)·8·4096·2 B per layer × 32 layers = 2,097,152 B; 0.25 FLOP/B.
        QVERIFY(close(level["bytes"].toDouble(), 2097152.0));
        QVERIFY(close(level["intensity"].toDouble(), 0.25));
    }
    QCOMPARE(allReduces, 2);
    // Text: the network-bound line.
    const Run text = runCli({ "llm", "--hardware", "H100", "--model", "llama-2-7b", "--phase",
        "decode", "--seq", "1024", "--tp", "2" });
    QCOMPARE(text.status, 0);
    QVERIFY(text.out.contains("collectives on NVLink 4"));
    QVERIFY(text.out.contains("network-bound"));
}

void TestCliLlmParallel::operatorTrajectories()
{
    // seq 256, 512, 1024, 2048: Llama-2-7B's 18 operator kinds (WORKLOADS.md's table, gated
    // FFN, softmax unfused) + 2 all-reduces = 20 paths, 4 samples each.
    const Run run
        = runCli({ "llm", "--hardware", "H100", "--model", "llama-2-7b", "--phase", "decode",
            "--batch", "4", "--sweep", "seq=256:2048", "--operators", "--tp", "2", "--json" });
    QCOMPARE(run.status, 0);
    const QJsonArray paths = json(run)["trajectories"].toArray();
    QCOMPARE(paths.size(), 20);
    for (const auto &path : paths)
        QCOMPARE(path.toObject()["sweep"].toObject()["points"].toArray().size(), 4);
}

void TestCliLlmParallel::rendersAPicture()
{
    QTemporaryDir dir;
    const QString file = dir.filePath("tp2.png");
    const Run run = runCli({ "llm", "--hardware", "H100", "--model", "llama-2-7b", "--phase",
        "decode", "--seq", "1024", "--sweep", "batch=1:64", "--tp", "2", "--render", file });
    QCOMPARE(run.status, 0);
    QVERIFY(QFileInfo(file).size() > 1000);
}

void TestCliLlmParallel::refusesImpossibleDegrees_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("message");
    QTest::newRow("tp 3") << QStringList { "--tp", "3" } << "does not divide";
    QTest::newRow("ep on dense") << QStringList { "--ep", "2" } << "mixture-of-experts";
    QTest::newRow("tp 0") << QStringList { "--tp", "0" } << "positive integer";
    QTest::newRow("no link") << QStringList { "--tp", "2", "--hardware", "TPU v4" }
                             << "no link ceiling";
}

void TestCliLlmParallel::refusesImpossibleDegrees()
{
    QFETCH(QStringList, options);
    QFETCH(QString, message);
    QStringList arguments { "llm", "--model", "llama-2-7b", "--phase", "decode", "--seq", "64" };
    if (!options.contains("--hardware"))
        arguments << "--hardware"
                  << "H100";
    const Run run = runCli(arguments + options);
    QCOMPARE(run.status, 2);
    QVERIFY2(run.err.contains(message.toUtf8()), run.err.constData());
}

QTEST_GUILESS_MAIN(TestCliLlmParallel)
#include "tst_cli_llm_parallel.moc"
