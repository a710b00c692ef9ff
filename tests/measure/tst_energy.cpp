// The energy side of `measure`: which RAPL zones are counted in a powercap folder (a fake one
// here), the joules between two readings across a counter's wrap, Choi et al.'s model fitted to
// runs made from known figures, the fit's refusals, the samples' JSON round trip, and a run on a
// machine whose counters do not move.
#include "measure/measure.h"
#include "measure/rapl.h"
#include "tests/support/testfiles.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace ridgepoint;

namespace {

constexpr std::uint64_t MiB = 1024ULL * 1024ULL;

// A zone folder of a fake /sys/class/powercap: its name and files ("" leaves a file out).
void addZone(const QTemporaryDir &root, const QString &zone, const QByteArray &name,
    const QByteArray &energy, const QByteArray &range = "262143328850\n")
{
    QDir(root.path()).mkpath(zone);
    test::writeAll(root.filePath(zone + "/name"), name + "\n");
    if (!energy.isEmpty())
        test::writeAll(root.filePath(zone + "/energy_uj"), energy);
    if (!range.isEmpty())
        test::writeAll(root.filePath(zone + "/max_energy_range_uj"), range);
}

// The figures the synthetic runs are made from.
// Of a size a server core shows (Choi et al. measured hundreds of pJ a FLOP with everything a
// core does around it): each dynamic term is a few W next to the static 20 W.
constexpr double kFp64 = 200e-12; // J per FLOP
constexpr double kFp32 = 100e-12;
constexpr double kL1 = 10e-12; // J per byte
constexpr double kDram = 500e-12;
constexpr double kStatic = 20.0; // W

EnergySample computeRun(Precision precision, int threads, double flops, double seconds)
{
    EnergySample s;
    s.precision = precision;
    s.threads = threads;
    s.work = flops;
    s.seconds = seconds;
    s.joules = flops * (precision == Precision::FP64 ? kFp64 : kFp32) + kStatic * seconds;
    return s;
}

EnergySample memoryRun(std::uint64_t workingSet, int threads, double bytes, double seconds)
{
    EnergySample s;
    s.compute = false;
    s.kernel = MemoryKernel::Load;
    s.workingSet = workingSet;
    s.threads = threads;
    s.work = bytes;
    s.seconds = seconds;
    s.joules = bytes * (workingSet < MiB ? kL1 : kDram) + kStatic * seconds;
    return s;
}

PlateauRecord plateau(MemoryLevel level, int threads, std::uint64_t first, std::uint64_t last)
{
    PlateauRecord p;
    p.kernel = MemoryKernel::Load;
    p.threads = threads;
    p.plateau.level = level;
    p.plateau.firstWorkingSet = first;
    p.plateau.lastWorkingSet = last;
    return p;
}

// Runs on one and on two threads (two rates per kind, so P0 is told from the energies), L1 and
// DRAM plateaus for both team sizes, and one memory run between them (not fitted).
Measurement syntheticRuns()
{
    Measurement m;
    m.date = "2026-11-29T12:00:00Z";
    m.host = "test";
    m.energy.counters = "RAPL package-0 (fake)";
    for (int threads : { 1, 2 }) {
        m.plateaus.push_back(plateau(MemoryLevel::L1, threads, 16 * 1024, 256 * 1024));
        m.plateaus.push_back(plateau(MemoryLevel::DRAM, threads, 64 * MiB, 512 * MiB));
    }
    // Per thread 50 GFLOP/s FP64, 100 FP32, 200 GB/s from L1; DRAM 10 GB/s on one thread and
    // 15 on two (it saturates).
    const double t = 0.25;
    for (int threads : { 1, 2 }) {
        m.energy.samples.push_back(computeRun(Precision::FP64, threads, threads * 50e9 * t, t));
        m.energy.samples.push_back(computeRun(Precision::FP32, threads, threads * 100e9 * t, t));
        m.energy.samples.push_back(memoryRun(64 * 1024, threads, threads * 200e9 * t, t));
        const double dram = threads == 1 ? 10e9 : 15e9;
        m.energy.samples.push_back(memoryRun(256 * MiB, threads, dram * t, t));
        m.energy.samples.push_back(memoryRun(128 * MiB, threads, dram * 2 * t, 2 * t));
    }
    // Between the plateaus: if it were fitted as L1 or DRAM it would pull the figures off.
    m.energy.samples.push_back(memoryRun(4 * MiB, 1, 20e9 * t, t));
    m.energy.samples.back().joules *= 3.0;
    return m;
}

} // namespace

class TestEnergy : public QObject
{
    Q_OBJECT

private slots:
    void findsPackagesAndDram();
    void refusesWithTheReason_data();
    void refusesWithTheReason();
    void joulesBetweenReadings_data();
    void joulesBetweenReadings();
    void recoversKnownFigures_data();
    void recoversKnownFigures();
    void leavesANegativeEnergyOut();
    void refusesAFitItCannotMake_data();
    void refusesAFitItCannotMake();
    void roundTripsTheSamples();
    void measuresWithFrozenCounters();
};

void TestEnergy::findsPackagesAndDram()
{
    QTemporaryDir root;
    QDir(root.path()).mkpath("intel-rapl"); // the control type, not a zone
    addZone(root, "intel-rapl:0", "package-0", "1000\n");
    test::writeAll(root.filePath("intel-rapl:0/constraint_0_name"), "long_term\n");
    test::writeAll(root.filePath("intel-rapl:0/constraint_0_power_limit_uw"), "65000000\n");
    test::writeAll(root.filePath("intel-rapl:0/constraint_1_name"), "short_term\n");
    test::writeAll(root.filePath("intel-rapl:0/constraint_1_power_limit_uw"), "90000000\n");
    addZone(root, "intel-rapl:0:0", "core", "400\n");
    addZone(root, "intel-rapl:0:1", "dram", "500\n", "65712999613\n");
    addZone(root, "intel-rapl:1", "psys", "9000\n"); // the platform: would count twice
    const auto counters = detail::findRaplCounters(root.path().toStdString());
    QVERIFY2(counters, counters ? "" : counters.error().c_str());
    QCOMPARE(counters->zones.size(), std::size_t { 2 });
    QCOMPARE(counters->zones[0].name, std::string("package-0"));
    QCOMPARE(counters->zones[1].name, std::string("dram"));
    QCOMPARE(counters->zones[1].maxRange, std::uint64_t { 65712999613 });
    QCOMPARE(counters->description, "RAPL package-0 + dram (" + root.path().toStdString() + ")");
    QVERIFY(counters->powerLimitWatts);
    QCOMPARE(*counters->powerLimitWatts, 65.0); // the long-term limit, not the short-term one
    const auto readings = detail::readRaplEnergy(*counters);
    QVERIFY(readings);
    QCOMPARE(*readings, (std::vector<std::uint64_t> { 1000, 500 }));
}

void TestEnergy::refusesWithTheReason_data()
{
    QTest::addColumn<QString>("layout");
    QTest::addColumn<QString>("reason");
    QTest::newRow("no powercap folder") << "absent"
                                        << "is absent";
    QTest::newRow("only the platform zone") << "psys"
                                            << "no RAPL package zone";
    QTest::newRow("unreadable counter") << "unreadable"
                                        << "cannot be read";
    QTest::newRow("counter not a number") << "garbage"
                                          << "cannot be read";
}

void TestEnergy::refusesWithTheReason()
{
    QFETCH(QString, layout);
    QFETCH(QString, reason);
    QTemporaryDir root;
    std::string path = root.path().toStdString();
    if (layout == "absent") {
        path += "/missing";
    } else if (layout == "psys") {
        addZone(root, "intel-rapl:1", "psys", "9000\n");
    } else if (layout == "unreadable") {
        // Root reads any file whatever its mode: a folder in the counter's place cannot be read.
        addZone(root, "intel-rapl:0", "package-0", "");
        QDir(root.path()).mkpath("intel-rapl:0/energy_uj");
    } else {
        addZone(root, "intel-rapl:0", "package-0", "12a4\n");
    }
    const auto counters = detail::findRaplCounters(path);
    QVERIFY(!counters);
    QVERIFY2(
        counters.error().find(reason.toStdString()) != std::string::npos, counters.error().c_str());
    QVERIFY(counters.error().ends_with("no energy figures"));
}

void TestEnergy::joulesBetweenReadings_data()
{
    QTest::addColumn<quint64>("before");
    QTest::addColumn<quint64>("after");
    QTest::addColumn<quint64>("range");
    QTest::addColumn<double>("joules");
    QTest::addColumn<bool>("valid");
    QTest::newRow("forward") << quint64(1000) << quint64(3001000) << quint64(1000000000) << 3.0
                             << true;
    // Wrapped once: 1e9 − 999.5e6 before the wrap, 0.5e6 after it: 1 J.
    QTest::newRow("wrapped") << quint64(999500000) << quint64(500000) << quint64(1000000000) << 1.0
                             << true;
    QTest::newRow("wrapped, range unknown")
        << quint64(999500000) << quint64(500000) << quint64(0) << 0.0 << false;
    QTest::newRow("no change") << quint64(42) << quint64(42) << quint64(100) << 0.0 << true;
}

void TestEnergy::joulesBetweenReadings()
{
    QFETCH(quint64, before);
    QFETCH(quint64, after);
    QFETCH(quint64, range);
    QFETCH(double, joules);
    QFETCH(bool, valid);
    detail::RaplCounters counters;
    counters.zones.push_back({ "package-0", "/nowhere", range });
    bool ok = !valid;
    const double got = detail::raplJoulesBetween(counters, { before }, { after }, ok);
    QCOMPARE(ok, valid);
    QVERIFY2(std::abs(got - joules) < 1e-12, qPrintable(QString::number(got)));
}

void TestEnergy::recoversKnownFigures_data()
{
    QTest::addColumn<double>("noise");
    QTest::addColumn<double>("tolerance");
    QTest::addColumn<double>("l1Tolerance");
    QTest::newRow("exact runs") << 0.0 << 1e-6 << 1e-6;
    // ±1 % on every run's joules, alternating. Each dynamic term is a few W beside the static
    // 20 W, so 1 % of a run's energy is several % of that term; an L1 run's bytes cost only 2 W a
    // thread, so theirs is the loosest figure.
    QTest::newRow("1 % noise") << 0.01 << 0.1 << 0.25;
}

void TestEnergy::recoversKnownFigures()
{
    QFETCH(double, noise);
    QFETCH(double, tolerance);
    QFETCH(double, l1Tolerance);
    Measurement m = syntheticRuns();
    m.energy.powerLimitWatts = 65.0;
    for (std::size_t i = 0; i < m.energy.samples.size(); ++i)
        m.energy.samples[i].joules *= 1.0 + (i % 2 ? noise : -noise);
    const auto model = fitEnergyModel(m);
    QVERIFY2(model, model ? "" : model.error().c_str());
    auto near = [](std::optional<double> got, double want, double within) {
        return got && std::abs(*got - want) <= within * want;
    };
    QVERIFY(near(model->staticWatts, kStatic, tolerance));
    QVERIFY(near(model->flopEnergy(Precision::FP64), kFp64, tolerance));
    QVERIFY(near(model->flopEnergy(Precision::FP32), kFp32, tolerance));
    QVERIFY(near(model->byteEnergy(MemoryLevel::DRAM), kDram, tolerance));
    QVERIFY(near(model->byteEnergy(MemoryLevel::L1), kL1, l1Tolerance));
    QCOMPARE(model->powerCapWatts, std::optional<double>(65.0));
    QCOMPARE(model->provenance.basis, Basis::Measured);
    QCOMPARE(model->provenance.source, m.energy.counters);
    // 10 runs fitted: the one between the plateaus is left out.
    QVERIFY2(model->provenance.formula.find("over 10 runs") != std::string::npos,
        model->provenance.formula.c_str());
}

void TestEnergy::leavesANegativeEnergyOut()
{
    Measurement m = syntheticRuns();
    // L1 runs that used less than the static power alone: the unconstrained fit would give a
    // byte a negative energy; the fit gives it none and says so.
    for (auto &s : m.energy.samples) {
        if (!s.compute && s.workingSet < MiB)
            s.joules = 0.9 * kStatic * s.seconds;
    }
    const auto model = fitEnergyModel(m);
    QVERIFY2(model, model ? "" : model.error().c_str());
    QVERIFY(!model->byteEnergy(MemoryLevel::L1));
    // The least squares with the L1 energy held at 0, worked out apart from this code in exact
    // fractions (tests/measure/energy_nnls_check.py): the L1 runs pull the static power down.
    auto near = [](std::optional<double> got, double want) {
        return got && std::abs(*got - want) <= 1e-5 * want;
    };
    QVERIFY(near(model->staticWatts, 18.5635));
    QVERIFY(near(model->flopEnergy(Precision::FP64), 217.238e-12));
    QVERIFY(near(model->flopEnergy(Precision::FP32), 108.619e-12));
    QVERIFY(near(model->byteEnergy(MemoryLevel::DRAM), 610.497e-12));
    QVERIFY2(model->provenance.notes.find("left out: L1 byte") != std::string::npos,
        model->provenance.notes.c_str());
}

void TestEnergy::refusesAFitItCannotMake_data()
{
    QTest::addColumn<QString>("change");
    QTest::addColumn<QString>("reason");
    QTest::newRow("no counters") << "unavailable"
                                 << "no RAPL";
    QTest::newRow("no runs") << "empty"
                             << "no run was timed";
    QTest::newRow("frozen counters") << "frozen"
                                     << "did not advance";
    QTest::newRow("too few runs") << "few"
                                  << "too few runs";
    QTest::newRow("one rate per kind") << "onerate"
                                       << "cannot tell the static power";
}

void TestEnergy::refusesAFitItCannotMake()
{
    QFETCH(QString, change);
    QFETCH(QString, reason);
    Measurement m = syntheticRuns();
    if (change == "unavailable") {
        m.energy.unavailable = "no RAPL energy counters on this machine";
    } else if (change == "empty") {
        m.energy.samples.clear();
    } else if (change == "frozen") {
        for (auto &s : m.energy.samples)
            s.joules = 0.0;
    } else if (change == "few") {
        m.energy.samples.resize(3);
    } else {
        // Every compute run at one FLOP rate, every DRAM run at one byte rate: T is then a sum
        // of the F and B columns, and P0 cannot be told from the energies.
        m.energy.samples.clear();
        for (double t : { 0.1, 0.2, 0.3, 0.4 }) {
            m.energy.samples.push_back(computeRun(Precision::FP64, 1, 50e9 * t, t));
            m.energy.samples.push_back(memoryRun(256 * MiB, 1, 10e9 * t, t));
        }
    }
    const auto model = fitEnergyModel(m);
    QVERIFY(!model);
    QVERIFY2(model.error().find(reason.toStdString()) != std::string::npos, model.error().c_str());
}

void TestEnergy::roundTripsTheSamples()
{
    Measurement m = syntheticRuns();
    m.tool = "ridgepoint measure test";
    m.cpuModel = "Test CPU";
    m.isa = "portable";
    m.energy.powerLimitWatts = 65.0;
    Hardware machine;
    machine.name = "Measured: test";
    machine.kind = "cpu";
    ComputeCeiling compute;
    compute.name = "FP64 portable";
    compute.precision = Precision::FP64;
    compute.peak = 1e10;
    machine.compute.push_back(compute);
    MemoryCeiling memory;
    memory.name = "DRAM load";
    memory.level = MemoryLevel::DRAM;
    memory.bandwidth = 1e10;
    machine.memory.push_back(memory);
    const auto read = readMeasurementJson(writeMeasuredHardwareJson(machine, m));
    QVERIFY2(read, read ? "" : read.error().c_str());
    QVERIFY(read->energy == m.energy);
}

void TestEnergy::measuresWithFrozenCounters()
{
    QTemporaryDir root;
    addZone(root, "intel-rapl:0", "package-0", "123456\n");
    MeasureOptions options;
    options.budgetSeconds = 1.0;
    options.maxWorkingSet = 4 * MiB;
    options.pointsPerOctave = 2;
    options.caches
        = std::vector<CacheInfo> { { 1, "Data", 32 * 1024, 1 }, { 2, "Unified", MiB, 1 } };
    options.powercapRoot = root.path().toStdString();
    auto result = measureMachine(options);
    QVERIFY2(result, result ? "" : result.error().c_str());
    const auto &energy = result->measurement.energy;
    QCOMPARE(energy.counters, "RAPL package-0 (" + options.powercapRoot + ")");
    QVERIFY(!energy.samples.empty()); // the roof kernels' runs, one per team size and precision
    QVERIFY2(energy.unavailable.find("did not advance") != std::string::npos,
        energy.unavailable.c_str());
    QVERIFY(!result->hardware.limits.energy);

    options.powercapRoot = root.filePath("missing").toStdString();
    result = measureMachine(options);
    QVERIFY(result);
    QVERIFY(result->measurement.energy.samples.empty());
    QVERIFY(result->measurement.energy.unavailable.find("is absent") != std::string::npos);
}

QTEST_GUILESS_MAIN(TestEnergy)
#include "tst_energy.moc"
