// `render --energy` (docs/MODEL.md §14.1): the energy twin chart of the H100 example to PNG and
// SVG, beside the roofline or alone; a machine without energy figures refused with the reason;
// and the H100 preset's derived figures in `analyze --json`, checked against a hand calculation.
#include "tests/support/cli_run.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace ridgepoint;

namespace {

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestCliEnergy : public QObject
{
    Q_OBJECT

private slots:
    void energyChartOfTheExample_data();
    void energyChartOfTheExample();
    void untimedPointsAreCounted();
    void besideTheRoofline();
    void machineWithoutFiguresIsRefused();
    void presetEnergyByHand();

private:
    QTemporaryDir m_dir;
};

void TestCliEnergy::energyChartOfTheExample_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("magic");
    QTest::newRow("png") << "energy.png" << QByteArray("\x89PNG");
    QTest::newRow("svg") << "energy.svg" << QByteArray("<?xml");
}

void TestCliEnergy::energyChartOfTheExample()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, magic);
    const QString path = m_dir.filePath(name);
    const auto run = test::runCli(
        { "render", "--hardware", "h100", "--example", "--size", "800x500", "--energy", path });
    QVERIFY2(run.status == 0, run.err.constData());
    QVERIFY(readAll(path).startsWith(magic));
    QVERIFY(run.out.contains("wrote"));
    QVERIFY2(!run.err.contains("Not drawn"), run.err.constData()); // every example point is timed
}

void TestCliEnergy::untimedPointsAreCounted()
{
    const QString points = m_dir.filePath("untimed.csv");
    QFile file(points);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("name,precision,flops,bytes,seconds\n"
               "timed,bf16,1e12,1e9,0.002\n"
               "untimed,bf16,1e12,1e9,\n");
    file.close();
    const QString path = m_dir.filePath("untimed.png");
    const auto run = test::runCli({ "render", "--hardware", "h100", "--energy", path, points });
    QVERIFY2(run.status == 0, run.err.constData());
    QVERIFY2(run.err.contains("--energy: Not drawn: 1 point without a measured time."),
        run.err.constData());
}

void TestCliEnergy::besideTheRoofline()
{
    const QString roofline = m_dir.filePath("roofline.png");
    const QString energy = m_dir.filePath("both-energy.png");
    const auto run = test::runCli({ "render", "--hardware", "h100", "--example", "--size",
        "800x500", "-o", roofline, "--energy", energy });
    QVERIFY2(run.status == 0, run.err.constData());
    QVERIFY(readAll(roofline).startsWith("\x89PNG"));
    QVERIFY(readAll(energy).startsWith("\x89PNG"));
}

void TestCliEnergy::machineWithoutFiguresIsRefused()
{
    const QString path = m_dir.filePath("a100-energy.png");
    const auto run
        = test::runCli({ "render", "--hardware", "a100-80gb", "--example", "--energy", path });
    QCOMPARE(run.status, 2);
    QVERIFY2(run.err.contains("has no energy figures"), run.err.constData());
    QVERIFY(!QFile::exists(path));
}

void TestCliEnergy::presetEnergyByHand()
{
    // qkv_proj of the H100 example: F = 2.06158e11 FLOP (bf16), B = 1.67772e8 HBM bytes,
    // T = 293.6 µs. With the preset's e_bf16 = 0.627 pJ, e_HBM = 185 pJ/B, P0 = 80 W:
    // 0.129261 + 0.0310378 + 0.023488 = 0.1837869 J. I = 1228.8 FLOP/B; the cap allows
    // (700 − 80) / (6.27e-13 + 1.85e-10 / 1228.8) = 620 / 7.7755e-13 = 797 TFLOP/s.
    const auto run = test::runCli({ "analyze", "--hardware", "h100", "--example", "--json" });
    QVERIFY2(run.status == 0, run.err.constData());
    const QJsonArray points = QJsonDocument::fromJson(run.out).object()["points"].toArray();
    QVERIFY(!points.isEmpty());
    const QJsonObject qkv = points.first().toObject();
    QVERIFY(qkv["name"].toString().startsWith("qkv_proj"));
    const double joules = 2.06158e11 * 6.27e-13 + 1.67772e8 * 1.85e-10 + 80.0 * 2.936e-4;
    QVERIFY2(std::fabs(qkv["energy_joules"].toDouble() - joules) < 1e-9 * joules,
        qPrintable(QString::number(qkv["energy_joules"].toDouble(), 'g', 12)));
    const double intensity = 2.06158e11 / 1.67772e8;
    const double capped = 620.0 / (6.27e-13 + 1.85e-10 / intensity);
    QVERIFY2(std::fabs(qkv["power_capped_attainable"].toDouble() - capped) < 1e-9 * capped,
        qPrintable(QString::number(qkv["power_capped_attainable"].toDouble(), 'g', 12)));
}

QTEST_GUILESS_MAIN(TestCliEnergy)
#include "tst_cli_energy.moc"
