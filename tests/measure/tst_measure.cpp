// Measuring this machine: plateau detection on synthetic curves, the measured machine and its
// JSON round trip, cancellation, the kernels of every ISA the processor runs.
#include "core/io/formats/hardware_json.h"
#include "measure/measure.h"
#include "measure/measure_kernels.h"
#include "measure/plateau_labels.h"

#include <QElapsedTimer>
#include <QTest>

#include <chrono>
#include <cmath>
#include <random>
#include <thread>

using namespace ridgepoint;

namespace {

constexpr std::uint64_t KiB = 1024;
constexpr std::uint64_t MiB = 1024 * KiB;

struct Level {
    double bandwidth; // GB/s
    std::uint64_t capacity; // the working set where it gives way to the next (0: last)
};

// A curve from 4 KiB to 512 MiB, three points per octave: each level until its capacity, then a
// log-linear slope over one octave to the next. `noise`: relative, Gaussian, fixed seed;
// `outliers`: every n-th point slowed to 40 %; `rampPoints`: the first points at half speed.
std::vector<BandwidthSample> curve(const std::vector<Level> &levels, double noise, int outliers = 0,
    int rampPoints = 0, std::uint64_t last = 512 * MiB)
{
    std::mt19937 random(42);
    std::normal_distribution<double> gauss(0.0, noise);
    std::vector<BandwidthSample> out;
    int index = 0;
    for (double size = 4.0 * KiB; size <= static_cast<double>(last) * 1.0001;
         size *= std::cbrt(2.0), ++index) {
        double log = std::log(levels.back().bandwidth);
        for (std::size_t i = 0; i < levels.size(); ++i) {
            const auto cap = static_cast<double>(levels[i].capacity);
            if (levels[i].capacity == 0 || size <= cap) {
                log = std::log(levels[i].bandwidth);
                break;
            }
            if (size < 2.0 * cap) {
                const double t = std::log2(size / cap);
                log = (1 - t) * std::log(levels[i].bandwidth)
                    + t * std::log(levels[i + 1].bandwidth);
                break;
            }
        }
        double value = std::exp(log) * 1e9 * (1.0 + (noise > 0 ? gauss(random) : 0.0));
        if (outliers > 0 && index % outliers == outliers - 1)
            value *= 0.4;
        if (index < rampPoints)
            value *= 0.5;
        BandwidthSample sample;
        sample.workingSet = static_cast<std::uint64_t>(size);
        sample.best = value;
        sample.median = value;
        sample.trials = 3;
        out.push_back(sample);
    }
    return out;
}

const std::vector<Level> kFourLevels { { 400, 48 * KiB }, { 200, 1 * MiB }, { 100, 32 * MiB },
    { 30, 0 } };
const CacheSizes kCapacities { 48 * KiB, 1 * MiB, 32 * MiB, 0 };

QString names(const std::vector<Plateau> &plateaus)
{
    QStringList list;
    for (const auto &p : plateaus)
        list << QString::fromLatin1(memoryLevelName(p.level).data(),
            static_cast<qsizetype>(memoryLevelName(p.level).size()));
    return list.join(',');
}

} // namespace

Q_DECLARE_METATYPE(std::vector<BandwidthSample>)
Q_DECLARE_METATYPE(std::vector<double>)
Q_DECLARE_METATYPE(CacheSizes)

class TestMeasure : public QObject
{
    Q_OBJECT

private slots:
    void findsPlateaus_data();
    void findsPlateaus();
    void ignoresOrderAndEmpty();
    void buildsAMachine();
    void roundTripsJson();
    void rejectsABrokenMeasurement();
    void comparesWithSpec();
    void matchesSpecByModel_data();
    void matchesSpecByModel();
    void kernelsOfEveryIsa();
    void cancels_data();
    void cancels();
    void measuresWithinBudget();
    void detectsCaches();
};

void TestMeasure::findsPlateaus_data()
{
    QTest::addColumn<std::vector<BandwidthSample>>("curve");
    QTest::addColumn<CacheSizes>("capacities");
    QTest::addColumn<QString>("levels");
    QTest::addColumn<std::vector<double>>("bandwidths"); // GB/s, within 10 %

    const std::vector<double> four { 400, 200, 100, 30 };
    QTest::newRow("clean steps") << curve(kFourLevels, 0.0) << kCapacities << "L1,L2,L3,DRAM"
                                 << four;
    QTest::newRow("clean steps, no reported caches")
        << curve(kFourLevels, 0.0) << CacheSizes {} << "L1,L2,L3,DRAM" << four;
    QTest::newRow("5 % noise") << curve(kFourLevels, 0.05) << kCapacities << "L1,L2,L3,DRAM"
                               << four;
    QTest::newRow("8 % noise and outliers")
        << curve(kFourLevels, 0.08, 7) << kCapacities << "L1,L2,L3,DRAM" << four;
    QTest::newRow("slow start at the smallest sizes")
        << curve(kFourLevels, 0.02, 0, 3) << kCapacities << "L1,L2,L3,DRAM" << four;
    // The levels follow the reported sizes: a VM reporting a 480 MiB L3 has its DRAM from
    // 960 MiB, past this 512 MiB sweep: no DRAM level (a warning), and the L3 is the stretch
    // with the most sets in 2 MiB..480 MiB (100 GB/s: 12 sets from 2 MiB to 32 MiB, against
    // the 30 GB/s stretch's 9 from 64 MiB to 512 MiB).
    QTest::newRow("a VM's 480 MiB L3: no DRAM in a 512 MiB sweep")
        << curve(kFourLevels, 0.03) << CacheSizes { 48 * KiB, 1 * MiB, 480 * MiB, 0 } << "L1,L2,L3"
        << std::vector<double> { 400, 200, 100 };
    QTest::newRow("no L3 reported (L2 straight to DRAM)")
        << curve({ { 400, 48 * KiB }, { 200, 1 * MiB }, { 30, 0 } }, 0.03)
        << CacheSizes { 48 * KiB, 1 * MiB, 0, 0 } << "L1,L2,DRAM"
        << std::vector<double> { 400, 200, 30 };
    // An L2 the system reports but the curve does not show: the sets of 96 KiB..1 MiB run at
    // the L3's 100 GB/s, and they are still the L2's sets.
    QTest::newRow("L2 as fast as L3: named by size")
        << curve({ { 400, 48 * KiB }, { 100, 32 * MiB }, { 30, 0 } }, 0.03) << kCapacities
        << "L1,L2,L3,DRAM" << std::vector<double> { 400, 100, 100, 30 };
    QTest::newRow("single level inside L1") << curve({ { 400, 0 } }, 0.03, 0, 0, 32 * KiB)
                                            << kCapacities << "L1" << std::vector<double> { 400 };
    QTest::newRow("single level, no reported caches")
        << curve({ { 25, 0 } }, 0.03) << CacheSizes {} << "DRAM" << std::vector<double> { 25 };
    QTest::newRow("two levels, no reported caches") << curve({ { 300, 2 * MiB }, { 20, 0 } },
        0.02) << CacheSizes {} << "L1,DRAM" << std::vector<double> { 300, 20 };
}

void TestMeasure::findsPlateaus()
{
    QFETCH(std::vector<BandwidthSample>, curve);
    QFETCH(CacheSizes, capacities);
    QFETCH(QString, levels);
    QFETCH(std::vector<double>, bandwidths);
    const auto plateaus = labelPlateaus(curve, capacities).levels;
    QCOMPARE(names(plateaus), levels);
    QCOMPARE(plateaus.size(), bandwidths.size());
    for (std::size_t i = 0; i < plateaus.size(); ++i) {
        const double got = plateaus[i].bandwidth / 1e9;
        QVERIFY2(std::abs(got / bandwidths[i] - 1.0) < 0.10,
            qPrintable(
                QString("plateau %1: %2 GB/s, expected %3").arg(i).arg(got).arg(bandwidths[i])));
        QVERIFY(plateaus[i].maxBandwidth >= plateaus[i].bandwidth);
        QVERIFY(plateaus[i].firstWorkingSet <= plateaus[i].lastWorkingSet);
        QVERIFY(plateaus[i].points >= 2);
        if (i > 0)
            QVERIFY(plateaus[i].firstWorkingSet > plateaus[i - 1].lastWorkingSet);
    }
}

void TestMeasure::ignoresOrderAndEmpty()
{
    QVERIFY(labelPlateaus({}, kCapacities).levels.empty());
    auto points = curve(kFourLevels, 0.02);
    std::reverse(points.begin(), points.end());
    points.push_back({ MemoryKernel::Load, 1, 8 * KiB, 0.0, 0.0, 0 }); // unusable: ignored
    QCOMPARE(names(labelPlateaus(points, kCapacities).levels), QString("L1,L2,L3,DRAM"));
}

namespace {

Measurement sampleMeasurement()
{
    Measurement m;
    m.tool = "ridgepoint measure 0.1.0";
    m.date = "2026-11-26T04:44:13Z";
    m.host = "testhost";
    m.cpuModel = "Test CPU 1000";
    m.cpuVendor = "AuthenticAMD";
    m.threads = 2;
    m.hardwareThreads = 2;
    m.isa = "avx512";
    m.isas = { "portable", "sse2", "avx2", "avx512" };
    m.budgetSeconds = 10;
    m.elapsedSeconds = 10.25;
    m.byteCounting = "read plus written bytes";
    m.reportedCaches = { { 1, "Data", 48 * KiB, 1 }, { 3, "Unified", 32 * MiB, 2 } };
    for (int threads : { 1, 2 }) {
        for (bool fp64 : { true, false }) {
            for (bool simd : { true, false }) {
                for (bool fma : { true, false }) {
                    ComputeSample s;
                    s.precision = fp64 ? Precision::FP64 : Precision::FP32;
                    s.isa = simd ? "avx512" : (fma ? "avx2" : "sse2");
                    s.simd = simd;
                    s.fma = fma;
                    s.threads = threads;
                    s.best = (simd ? 8 : 1) * (fp64 ? 1 : 2) * (fma ? 1.0 : 0.75) * threads * 17e9;
                    s.median = s.best * 0.97;
                    s.trials = 5;
                    m.compute.push_back(s);
                }
            }
        }
    }
    auto sweep = curve(kFourLevels, 0.01);
    for (auto &s : sweep) {
        s.threads = 2;
        m.sweep.push_back(s);
    }
    for (const auto &p : labelPlateaus(sweep, kCapacities).levels) {
        m.plateaus.push_back({ MemoryKernel::Load, 2, p });
        m.plateaus.push_back({ MemoryKernel::Copy, 2, p });
        m.plateaus.push_back({ MemoryKernel::Load, 1, p });
    }
    m.labelling = { { 2, kCapacities } };
    m.warnings = { "load, 2 threads: a test warning" };
    Hardware spec = makeSimpleMachine(3e12, 400e9);
    spec.name = "Test CPU 1000";
    m.spec = spec;
    return m;
}

} // namespace

void TestMeasure::buildsAMachine()
{
    const auto m = sampleMeasurement();
    const auto hardware = hardwareFromMeasurement(m, "Measured: test");
    QVERIFY2(hardware, hardware ? "" : hardware.error().c_str());
    QCOMPARE(hardware->name, std::string("Measured: test"));
    QCOMPARE(hardware->vendor, std::string("AMD"));
    QCOMPARE(hardware->kind, std::string("cpu"));
    QCOMPARE(hardware->defaultCompute, std::string("FP64 AVX-512 FMA"));
    QVERIFY(validateHardware(*hardware).empty());
    const auto *fma = hardware->findCompute("FP64 AVX-512 FMA");
    QVERIFY(fma && fma->visible);
    QCOMPARE(fma->peak, 8 * 2 * 17e9);
    QVERIFY(hardware->findCompute("FP64 scalar")->visible);
    QVERIFY(!hardware->findCompute("FP64 AVX-512 mul+add")->visible);
    QVERIFY(!hardware->findCompute("FP64 AVX-512 FMA (1 thread)")->visible);
    // The load plateaus are the visible roofs, listed first; copy and 1-thread are hidden.
    QCOMPARE(hardware->memoryFor(MemoryLevel::DRAM)->name, std::string("DRAM load"));
    QVERIFY(std::abs(hardware->mainMemory()->bandwidth / 30e9 - 1) < 0.1);
    QVERIFY(!hardware->findMemory("L2 copy")->visible);
    QVERIFY(!hardware->findMemory("L1 load (1 thread)")->visible);
    // Every measured ceiling says so: basis, tool and version, date, host, and what the
    // figure is made of (the plateau's working sets and sample count, or the trials).
    const MemoryCeiling *dram = hardware->findMemory("DRAM load");
    Plateau dramPlateau;
    for (const auto &p : m.plateaus) {
        if (p.kernel == MemoryKernel::Load && p.threads == 2
            && p.plateau.level == MemoryLevel::DRAM)
            dramPlateau = p.plateau;
    }
    QCOMPARE(dram->provenance.basis, Basis::Measured);
    QCOMPARE(dram->provenance.tool, std::string("ridgepoint measure 0.1.0"));
    QCOMPARE(dram->provenance.date, m.date);
    QCOMPARE(dram->provenance.host, m.host);
    const std::string range = formatBinarySize(dramPlateau.firstWorkingSet) + "–"
        + formatBinarySize(dramPlateau.lastWorkingSet);
    QVERIFY2(dram->provenance.notes.find(range) != std::string::npos
            && dram->provenance.notes.find(std::to_string(dramPlateau.points) + " samples")
                != std::string::npos,
        dram->provenance.notes.c_str());
    for (const auto &c : hardware->memory) {
        if (!c.name.ends_with("(spec)"))
            QCOMPARE(c.provenance.basis, Basis::Measured);
    }
    for (const auto &c : hardware->compute) {
        if (!c.name.ends_with("(spec)")) {
            QCOMPARE(c.provenance.basis, Basis::Measured);
            QVERIFY(c.provenance.notes.find("best of 5 trials") != std::string::npos);
        }
    }
    QVERIFY(hardware->findMemory("Memory (spec)")->provenance.basis != Basis::Measured);
    // Spec ceilings sit beside the measured ones, visible.
    QVERIFY(hardware->findCompute("Peak (spec)") && hardware->findCompute("Peak (spec)")->visible);
    QVERIFY(hardware->findMemory("Memory (spec)"));

    Measurement empty = m;
    empty.plateaus.clear();
    empty.spec.reset();
    QVERIFY(!hardwareFromMeasurement(empty, "x"));
}

void TestMeasure::comparesWithSpec()
{
    // One row per precision (the fastest all-thread figure) and per load plateau, in that order;
    // the spec's fastest ceiling of the same precision or level beside it, or nothing.
    Measurement m = sampleMeasurement();
    const auto rows = compareWithSpec(m);
    QCOMPARE(rows.size(), std::size_t(6));
    QVERIFY(rows[0].compute && rows[0].precision == Precision::FP64);
    QCOMPARE(rows[0].measuredName, std::string("FP64 AVX-512 FMA"));
    QCOMPARE(rows[0].measured, 8 * 2 * 17e9);
    QVERIFY(rows[0].specName.empty()); // the spec has no FP64 figure
    QCOMPARE(rows[1].measuredName, std::string("FP32 AVX-512 FMA"));
    QCOMPARE(rows[1].measured, 8 * 2 * 2 * 17e9);
    QCOMPARE(rows[1].specName, std::string("Peak"));
    QCOMPARE(rows[1].spec, 3e12);
    const char *levels[] = { "L1 load", "L2 load", "L3 load", "DRAM load" };
    for (std::size_t i = 0; i < 4; ++i) {
        QVERIFY(!rows[2 + i].compute);
        QCOMPARE(rows[2 + i].measuredName, std::string(levels[i]));
        QVERIFY(rows[2 + i].measured > 0.0);
    }
    QVERIFY(std::abs(rows[5].measured / 30e9 - 1) < 0.1);
    QCOMPARE(rows[5].specName, std::string("Memory"));
    QCOMPARE(rows[5].spec, 400e9);
    QVERIFY(rows[4].specName.empty());

    m.spec.reset();
    for (const auto &row : compareWithSpec(m))
        QVERIFY(row.specName.empty() && row.spec == 0.0 && row.measured > 0.0);

    // A mul+add trial that beat the FMA ones by luck (a busy machine) does not replace the
    // FMA roof; without an FMA figure the widest mul+add is the roof.
    for (auto &s : m.compute) {
        if (s.precision == Precision::FP64 && s.simd && !s.fma && s.threads == 2)
            s.best = 1e13;
    }
    QCOMPARE(compareWithSpec(m)[0].measuredName, std::string("FP64 AVX-512 FMA"));
    std::erase_if(m.compute, [](const ComputeSample &s) { return s.simd && s.fma; });
    QCOMPARE(compareWithSpec(m)[0].measuredName, std::string("FP64 AVX-512 mul+add"));
    QCOMPARE(compareWithSpec(m)[0].measured, 1e13);
}

void TestMeasure::roundTripsJson()
{
    const auto m = sampleMeasurement();
    const auto hardware = hardwareFromMeasurement(m, "Measured: test");
    QVERIFY(hardware);
    const std::string text = writeMeasuredHardwareJson(*hardware, m);

    // The ordinary reader takes it as a machine, silently (no unknown-key warning).
    const auto read = readHardwareJson(text, "measured.json");
    QVERIFY(read.diagnostics.empty());
    QCOMPARE(read.machines.size(), std::size_t(1));
    QCOMPARE(writeHardwareJson(read.machines.front()), writeHardwareJson(*hardware));

    const auto back = readMeasurementJson(text);
    QVERIFY2(back, back ? "" : back.error().c_str());
    QCOMPARE(back->date, m.date);
    QCOMPARE(back->host, m.host);
    QCOMPARE(back->cpuModel, m.cpuModel);
    QCOMPARE(back->threads, m.threads);
    QCOMPARE(back->isas, m.isas);
    QCOMPARE(back->elapsedSeconds, m.elapsedSeconds);
    QCOMPARE(back->writeAllocateCounted, false);
    QVERIFY(back->reportedCaches == m.reportedCaches);
    QVERIFY(back->sweep == m.sweep);
    QVERIFY(back->compute == m.compute);
    QCOMPARE(back->tool, m.tool);
    QVERIFY(back->labelling == m.labelling);
    QCOMPARE(back->warnings, m.warnings);
    QVERIFY(back->plateaus == m.plateaus);
    QVERIFY(back->spec);
    QCOMPARE(writeHardwareJson(*back->spec), writeHardwareJson(*m.spec));
    // Writing it again gives the same bytes.
    QCOMPARE(writeMeasuredHardwareJson(read.machines.front(), *back), text);
}

void TestMeasure::rejectsABrokenMeasurement()
{
    QVERIFY(!readMeasurementJson("{"));
    QVERIFY(!readMeasurementJson(writeHardwareJson(makeSimpleMachine(1e12, 1e11))));
    auto text = writeMeasuredHardwareJson(
        *hardwareFromMeasurement(sampleMeasurement(), "m"), sampleMeasurement());
    const auto at = text.find("\"kernel\": \"load\"");
    QVERIFY(at != std::string::npos);
    text.replace(at, 16, "\"kernel\": \"lead\"");
    const auto broken = readMeasurementJson(text);
    QVERIFY(!broken);
    QVERIFY(broken.error().find("unknown kernel") != std::string::npos);
}

void TestMeasure::matchesSpecByModel_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<bool>("found");
    QTest::newRow("full model string") << "AMD EPYC 9654 96-Core Processor" << true;
    QTest::newRow("alias with a number") << "AMD epyc 9654" << true;
    QTest::newRow("a VM's bare family name") << "AMD EPYC" << false;
    QTest::newRow("another number") << "AMD EPYC 96541" << false;
    QTest::newRow("unknown") << "unknown CPU" << false;
}

void TestMeasure::matchesSpecByModel()
{
    QFETCH(QString, model);
    QFETCH(bool, found);
    Hardware epyc = makeSimpleMachine(3.6e12, 460e9);
    epyc.name = "AMD EPYC 9654";
    epyc.kind = "cpu";
    epyc.aliases = { "EPYC 9654", "Genoa" };
    Hardware gpu = makeSimpleMachine(1e15, 3e12);
    gpu.name = "AMD EPYC"; // a GPU of that name must not be taken for a CPU spec
    gpu.kind = "gpu";
    const auto spec = findSpecForCpu({ gpu, epyc }, model.toStdString());
    QCOMPARE(spec.has_value(), found);
    if (found)
        QCOMPARE(spec->name, epyc.name);
}

void TestMeasure::kernelsOfEveryIsa()
{
    using namespace ridgepoint::detail;
    const auto isas = supportedIsas();
    QVERIFY(!isas.empty());
    QCOMPARE(isas.front(), Isa::Portable);
    for (Isa isa : isas) {
        const QByteArray name(isaName(isa).data(), static_cast<qsizetype>(isaName(isa).size()));
        constexpr std::size_t n = 1000; // not a multiple of any vector step: the tail runs too
        std::vector<double> a(n, 1.0), b(n, 0.0), c(n, 2.0);
        QCOMPARE(loadKernel(isa, a.data(), n, 3), 3.0 * n);
        copyKernel(isa, a.data(), b.data(), n, 2);
        QVERIFY2(std::all_of(b.begin(), b.end(), [](double x) { return x == 1.0; }), name);
        triadKernel(isa, b.data(), a.data(), c.data(), 0.25, n, 1);
        QVERIFY2(std::all_of(b.begin(), b.end(), [](double x) { return x == 1.5; }), name);
        for (bool fp64 : { true, false }) {
            for (bool simd : { true, false }) {
                for (bool fma : { true, false }) {
                    const FlopKernel kernel { isa, fp64, simd, fma };
                    const double flops = flopsPerIteration(kernel);
                    if (flops == 0.0) // not on this ISA (FMA on SSE2, SIMD in portable C++)
                        continue;
                    QVERIFY(flops >= 2.0);
                    // x = x/2 + 1/2 converges to 1 in every lane that computes.
                    const double sum = runFlopKernel(kernel, 200, 0.3);
                    QVERIFY2(std::isfinite(sum) && sum > 0.0, name);
                }
            }
        }
    }
}

void TestMeasure::cancels_data()
{
    QTest::addColumn<int>("afterMs");
    QTest::addColumn<bool>("byFlag");
    QTest::newRow("callback, at once") << 0 << false;
    QTest::newRow("callback, during the sweep") << 300 << false;
    QTest::newRow("flag, during the sweep") << 300 << true;
}

void TestMeasure::cancels()
{
    QFETCH(int, afterMs);
    QFETCH(bool, byFlag);
    MeasureOptions options;
    options.budgetSeconds = 60; // would run a minute if not cancelled
    std::atomic<bool> flag { false };
    QElapsedTimer clock;
    clock.start();
    bool requested = false;
    int callsAfterRequest = 0; // progress reports after the cancel request
    const auto result = measureMachine(
        options,
        [&](const MeasureProgress &) {
            if (requested) {
                ++callsAfterRequest;
                return byFlag;
            }
            if (clock.elapsed() < afterMs)
                return true;
            requested = true;
            if (byFlag) {
                flag = true;
                return true;
            }
            return false;
        },
        &flag);
    QVERIFY(!result);
    QCOMPARE(result.error(), std::string("cancelled"));
    QVERIFY(requested);
    // Not a speed test: the runner stops at the next point it checks, so no further sample
    // (each reports progress) is started after the request; a missed request would run the
    // minute's sweep to its end with hundreds of reports.
    QVERIFY2(callsAfterRequest <= 1, qPrintable(QString::number(callsAfterRequest)));
}

void TestMeasure::measuresWithinBudget()
{
    MeasureOptions options;
    options.budgetSeconds = 1.0;
    options.maxWorkingSet = 4 * MiB;
    options.pointsPerOctave = 2;
    options.caches
        = std::vector<CacheInfo> { { 1, "Data", 32 * KiB, 1 }, { 2, "Unified", MiB, 1 } };
    std::vector<double> fractions;
    int samples = 0;
    int computeSamples = 0;
    const auto result = measureMachine(options, [&](const MeasureProgress &p) {
        fractions.push_back(p.fraction);
        samples += p.sample ? 1 : 0;
        computeSamples += p.compute ? 1 : 0;
        return true;
    });
    QVERIFY2(result, result ? "" : result.error().c_str());
    QVERIFY(validateHardware(result->hardware).empty());
    const auto &m = result->measurement;
    QCOMPARE(samples, static_cast<int>(m.sweep.size()));
    QCOMPARE(computeSamples, static_cast<int>(m.compute.size()));
    QVERIFY(std::is_sorted(fractions.begin(), fractions.end()));
    QCOMPARE(fractions.back(), 1.0);
    QVERIFY(!m.plateaus.empty());
    for (const auto &s : m.sweep) {
        QVERIFY(s.best >= s.median && s.median > 0.0);
        QVERIFY(s.trials >= 3);
        QVERIFY(s.workingSet <= 4 * MiB);
    }
    QVERIFY(!m.isa.empty() && m.isa == m.isas.back());
    QVERIFY(m.threads >= 1 && !m.date.empty() && !m.cpuModel.empty());
    // The injected caches are the ones named by: 1 thread holds 32 KiB of L1 and 1 MiB of L2.
    QVERIFY(m.reportedCaches == *options.caches);
    QVERIFY(!m.labelling.empty());
    QCOMPARE(m.labelling.front().threads, 1);
    QVERIFY((m.labelling.front().caches == CacheSizes { 32 * KiB, MiB, 0, 0 }));
    QVERIFY(m.tool.starts_with("ridgepoint measure "));
}

void TestMeasure::detectsCaches()
{
    // Whatever the system says must be well formed; sizes are not checked (VMs invent them).
    for (const auto &cache : detectCaches()) {
        QVERIFY(cache.level >= 1 && cache.level <= 4);
        QVERIFY(cache.size > 0);
        QVERIFY(cache.sharedBy >= 1);
        QVERIFY(cache.type != "Instruction");
    }
}

QTEST_GUILESS_MAIN(TestMeasure)
#include "tst_measure.moc"
