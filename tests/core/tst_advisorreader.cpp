// Intel Advisor: roofs CSV (ceilings) and the legacy survey CSV with its preamble (points).
#include "core/advisor_reader.h"
#include "tst_common_reader.h"

#include <QTest>

using namespace ridgepoint;

class TestAdvisorReader : public QObject
{
    Q_OBJECT

private slots:
    void readsRoofs();
    void readsTheSurveyAfterItsPreamble();
    void refusesBadSurveyRows_data();
    void refusesBadSurveyRows();
};

void TestAdvisorReader::readsRoofs()
{
    const auto result = readAdvisorRoofs(readTestData("advisor/roofs.csv"), "roofs.csv");
    QVERIFY2(!hasErrors(result.diagnostics), qPrintable(joined(result.diagnostics)));
    const Hardware &h = result.machines.front();
    QCOMPARE(h.kind, std::string("cpu"));
    // "(single node)" is kept but hidden, so DRAM bytes meet the whole-machine roof.
    QCOMPARE(h.memoryFor(MemoryLevel::DRAM)->bandwidth, 175273218366.0);
    QCOMPARE(h.memoryFor(MemoryLevel::L3)->bandwidth, 579993235472.0);
    QCOMPARE(h.computeFor(Precision::FP64)->peak, 1349734446677.0);
    QCOMPARE(h.computeFor(Precision::FP32)->peak, 2699332504425.0);
    QCOMPARE(h.compute.size(), std::size_t { 4 });
}

void TestAdvisorReader::readsTheSurveyAfterItsPreamble()
{
    // FORMATS.md §3.1: sep=, a two-line quoted banner, "MPI rank:0", then the header.
    const auto result = readAdvisorSurvey(readTestData("advisor/survey_legacy.csv"), "survey.csv");
    QVERIFY2(!hasErrors(result.diagnostics), qPrintable(joined(result.diagnostics)));
    QCOMPARE(result.points.size(), std::size_t { 1 });
    const KernelPoint &p = result.points.front();
    QCOMPARE(p.name,
        std::string("[child]-[loop in field_gathering_plus_particle_pusher_1_1_1 at "
                    "particles_push.F90:1295]"));
    QCOMPARE(p.source.line, 11);
    QCOMPARE(p.flops, 0.5235e9); // GFLOP
    QCOMPARE(*p.bytes.front().level, MemoryLevel::L1);
    QCOMPARE(p.bytes.front().bytes, 7.2309e9); // L1 GB
    QCOMPARE(*p.measuredRate, 0.844425e9); // GFLOPS
    QCOMPARE(joined(result.diagnostics),
        QString("survey.csv:9: warning: 2 rows without FLOP data left out (not executed, or "
                "collected without FLOP counts)"));
}

void TestAdvisorReader::refusesBadSurveyRows_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("message");
    const QByteArray header
        = "\"ID\",\"Function Call Sites and Loops\",\"Self GFLOP\",\"Self AI\"\n";
    // Found by fuzzing: the name was read from the second field of a row that had one.
    QTest::newRow("row with one field") << header + "\"1\"\n"
                                        << "survey.csv:2: expected 4 fields, found 1";
    QTest::newRow("GFLOP overflows")
        << header + "\"1\",\"loop\",\"1e300\",\"0.5\"\n"
        << "survey.csv:2: \"loop\": the FLOP count is not finite (expected zero or more FLOPs)";
}

void TestAdvisorReader::refusesBadSurveyRows()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, message);
    const auto result = readAdvisorSurvey(text.toStdString(), "survey.csv");
    QVERIFY(result.points.empty());
    QCOMPARE(result.rowsSkipped, 1);
    QCOMPARE(joined(result.diagnostics), message);
}

QTEST_GUILESS_MAIN(TestAdvisorReader)
#include "tst_advisorreader.moc"
