// The limits beyond the two roofs in a hardware file (docs/FILES.md, "Limits beyond the two
// roofs"): capacities, the launch latency, per-level latencies and the energy model, read,
// written back unchanged, and refused with the reason when zero, negative or absurd.
#include "core/io/formats/hardware_json.h"

#include <QTest>

using namespace ridgepoint;

namespace {

const QString kHead = R"({"version": 2, "name": "X",
    "compute": [{"name": "C", "precision": "fp32", "peak": 1e14}],
    "memory": [{"name": "M", "level": "DRAM", "bandwidth": 1e12}])";

QString machineWith(const QString &members)
{
    return kHead + ", " + members + "}";
}

QString allMessages(const std::vector<Diagnostic> &diagnostics)
{
    QStringList all;
    for (const auto &d : diagnostics)
        all << QString::fromStdString(d.toString());
    return all.join('\n');
}

const QString kGood = R"("capacities": [
      {"level": "L1", "name": "shared memory", "capacity": "228 KiB", "per": "sm",
       "provenance": {"basis": "spec", "source": "tuning guide"}},
      {"level": "L2", "capacity": "50 MiB", "per": "chip"}],
    "launch_latency": {"seconds": "5 us", "provenance": {"basis": "measured", "tool": "bench"}},
    "latencies": [{"level": "DRAM", "seconds": "600 ns"}],
    "energy": {"static_watts": 50, "power_cap_watts": 100, "per_flop": {"fp32": 1e-12},
               "per_byte": {"DRAM": 1e-11}, "source": "hand-made"},
    "compute_units": {"count": 132, "kind": "sm", "provenance": {"basis": "spec"}})";

} // namespace

class TestMachineLimits : public QObject
{
    Q_OBJECT

private slots:
    void readsEveryLimit();
    void writesThemBackUnchanged();
    void machineWithoutLimitsHasNone();
    void refusesBadLimits_data();
    void refusesBadLimits();
};

void TestMachineLimits::readsEveryLimit()
{
    const auto result = readHardwareJson(machineWith(kGood).toStdString(), "good.json");
    QVERIFY2(!hasErrors(result.diagnostics), qPrintable(allMessages(result.diagnostics)));
    QCOMPARE(result.machines.size(), std::size_t(1));
    const MachineLimits &limits = result.machines.front().limits;
    QCOMPARE(limits.capacities.size(), std::size_t(2));
    QCOMPARE(limits.capacities[0].level, MemoryLevel::L1);
    QCOMPARE(limits.capacities[0].bytes, 228.0 * 1024); // 233,472 B
    QCOMPARE(limits.capacities[0].per, std::string("sm"));
    QCOMPARE(limits.capacities[0].provenance.basis, Basis::Spec);
    QCOMPARE(limits.capacities[1].bytes, 50.0 * 1024 * 1024); // 52,428,800 B
    QVERIFY(limits.launchLatency);
    QCOMPARE(limits.launchLatency->seconds, 5e-6);
    QCOMPARE(limits.launchLatency->provenance.tool, std::string("bench"));
    QCOMPARE(limits.levelLatencies.size(), std::size_t(1));
    QCOMPARE(limits.levelLatencies[0].seconds, 6e-7);
    QVERIFY(limits.energy);
    QCOMPARE(*limits.energy->staticWatts, 50.0);
    QCOMPARE(*limits.energy->powerCapWatts, 100.0);
    QCOMPARE(*limits.energy->flopEnergy(Precision::FP32), 1e-12);
    QVERIFY(!limits.energy->flopEnergy(Precision::BF16));
    QCOMPARE(*limits.energy->byteEnergy(MemoryLevel::DRAM), 1e-11);
    QCOMPARE(limits.energy->provenance.source, std::string("hand-made"));
    QVERIFY(limits.computeUnits);
    QCOMPARE(limits.computeUnits->count, std::int64_t(132));
    QCOMPARE(limits.computeUnits->kind, std::string("sm"));
    QCOMPARE(limits.computeUnits->provenance.basis, Basis::Spec);
}

void TestMachineLimits::writesThemBackUnchanged()
{
    const auto first = readHardwareJson(machineWith(kGood).toStdString(), "good.json");
    QCOMPARE(first.machines.size(), std::size_t(1));
    const std::string written = writeHardwareJson(first.machines.front());
    const auto second = readHardwareJson(written, "written.json");
    QVERIFY2(!hasErrors(second.diagnostics), qPrintable(allMessages(second.diagnostics)));
    QCOMPARE(second.machines.size(), std::size_t(1));
    QVERIFY(second.machines.front().limits == first.machines.front().limits);
    QVERIFY(!second.machines.front().limits.empty());
}

void TestMachineLimits::machineWithoutLimitsHasNone()
{
    const auto result = readHardwareJson((kHead + "}").toStdString(), "plain.json");
    QCOMPARE(result.machines.size(), std::size_t(1));
    QVERIFY(result.machines.front().limits.empty());
    // and writes none of the keys
    const std::string written = writeHardwareJson(result.machines.front());
    QVERIFY(written.find("capacities") == std::string::npos);
    QVERIFY(written.find("energy") == std::string::npos);
}

void TestMachineLimits::refusesBadLimits_data()
{
    QTest::addColumn<QString>("members");
    QTest::addColumn<QString>("message");
    QTest::newRow("zero capacity")
        << R"("capacities": [{"level": "L2", "capacity": 0}])"
        << "machine (X).capacities[0].capacity: must be greater than zero";
    QTest::newRow("negative capacity") << R"("capacities": [{"level": "L2", "capacity": "-4 MiB"}])"
                                       << "machine (X).capacities[0].capacity:";
    QTest::newRow("absurd capacity") << R"("capacities": [{"level": "L2", "capacity": "1 TB"}])"
                                     << "B is outside the accepted range [256 B, 16 GiB]";
    QTest::newRow("capacity of main memory")
        << R"("capacities": [{"level": "HBM", "capacity": "80 GB"}])"
        << "capacity of HBM: only on-chip levels (L1, LDS, L2, L3) have a capacity";
    QTest::newRow("level twice") << R"("capacities": [{"level": "L2", "capacity": "4 MiB"},
                                      {"level": "L2", "capacity": "8 MiB"}])"
                                 << "capacity of L2: the level is given twice";
    QTest::newRow("unknown level") << R"("capacities": [{"level": "L9", "capacity": "4 MiB"}])"
                                   << "machine (X).capacities[0].level: unknown level \"L9\"";
    QTest::newRow("unknown per") << R"("capacities": [{"level": "L1", "capacity": "4 MiB",
                                       "per": "warp"}])"
                                 << "machine (X).capacities[0].per: unknown \"warp\"";
    QTest::newRow("capacities not a list") << R"("capacities": {"L2": "4 MiB"})"
                                           << "machine (X).capacities: expected an array";
    QTest::newRow("zero launch latency") << R"("launch_latency": {"seconds": 0})"
                                         << "machine (X).launch_latency.seconds: must be "
                                            "greater than zero";
    QTest::newRow("launch latency of an hour")
        << R"("launch_latency": {"seconds": "3600 s"})"
        << "launch latency: 3600 s is outside the accepted range [1 ns, 1 s]";
    QTest::newRow("launch latency a bare number")
        << R"("launch_latency": 5e-6)"
        << "machine (X).launch_latency: expected {\"seconds\"";
    QTest::newRow("level latency absurd")
        << R"("latencies": [{"level": "DRAM", "seconds": "2 s"}])"
        << "latency of DRAM: 2 s is outside the accepted range [0.1 ns, 1 ms]";
    QTest::newRow("cap under static")
        << R"("energy": {"static_watts": 300, "power_cap_watts": 200})"
        << "energy: the power cap 200 W is not above the static power 300 W";
    QTest::newRow("negative static") << R"("energy": {"static_watts": -5})"
                                     << "machine (X).energy.static_watts: must be greater than "
                                        "zero";
    QTest::newRow("watts as text") << R"("energy": {"power_cap_watts": "700 W"})"
                                   << "machine (X).energy.power_cap_watts: expected a number of "
                                      "watts, found string";
    QTest::newRow("unknown precision") << R"("energy": {"per_flop": {"fp128": 1e-12}})"
                                       << "machine (X).energy.per_flop: unknown key \"fp128\"";
    QTest::newRow("absurd byte energy") << R"("energy": {"per_byte": {"DRAM": 0.5}})"
                                        << "energy per DRAM byte: 0.5 J is outside the accepted "
                                           "range";
    QTest::newRow("no compute units")
        << R"("compute_units": {"count": 0, "kind": "sm"})"
        << "compute units: 0 units is outside the accepted range [1, 1000000]";
    QTest::newRow("fractional compute units")
        << R"("compute_units": {"count": 131.5, "kind": "sm"})"
        << "machine (X).compute_units.count: expected a whole number of SMs, CUs or cores";
    QTest::newRow("unknown kind of unit") << R"("compute_units": {"count": 8, "kind": "warp"})"
                                          << "compute units: unknown kind \"warp\" (expected sm, "
                                             "cu or core)";
    QTest::newRow("compute units a bare number")
        << R"("compute_units": 132)"
        << "machine (X).compute_units: expected {\"count\": 132";
    QTest::newRow("zero flop energy") << R"("energy": {"per_flop": {"fp32": 0}})"
                                      << "machine (X).energy.per_flop.fp32: must be greater "
                                         "than zero";
}

void TestMachineLimits::refusesBadLimits()
{
    QFETCH(QString, members);
    QFETCH(QString, message);
    const auto result = readHardwareJson(machineWith(members).toStdString(), "bad.json");
    QVERIFY(result.machines.empty());
    QVERIFY(hasErrors(result.diagnostics));
    QVERIFY2(allMessages(result.diagnostics).contains(message),
        qPrintable(allMessages(result.diagnostics)));
}

QTEST_GUILESS_MAIN(TestMachineLimits)
#include "tst_machine_limits.moc"
