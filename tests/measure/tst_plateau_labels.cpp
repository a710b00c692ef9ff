// Naming bandwidth plateaus by working-set size against the reported caches (labelPlateaus),
// on synthetic sweeps, and reading the caches from an injected sysfs directory (readCaches,
// cacheSizesFor). No timing: every sweep here is made up.
#include "measure/plateau_labels.h"

#include <QTest>

#include <cmath>
#include <map>
#include <random>

using namespace ridgepoint;

namespace {

constexpr std::uint64_t KiB = 1024;
constexpr std::uint64_t MiB = 1024 * KiB;
constexpr std::uint64_t GiB = 1024 * MiB;

struct Level {
    double bandwidth; // GB/s
    std::uint64_t capacity; // the working set where it gives way to the next (0: last)
};

// A sweep from 4 KiB to `last`, `perOctave` points per octave (the runner's sizes: 3 in a
// default run, 2 in a quick one): each level until its capacity, then a log-linear slope over
// one octave to the next. `noise`: relative, uniform in ±noise, fixed seed.
std::vector<BandwidthSample> sweep(const std::vector<Level> &levels, double noise = 0.0,
    int perOctave = 3, std::uint64_t last = 1 * GiB)
{
    std::mt19937 random(7);
    std::uniform_real_distribution<double> uniform(-noise, noise);
    std::vector<BandwidthSample> out;
    for (int i = 0;; ++i) {
        const double size = 4.0 * KiB * std::exp2(static_cast<double>(i) / perOctave);
        if (size > static_cast<double>(last) * 1.0001)
            break;
        double log = std::log(levels.back().bandwidth);
        for (std::size_t k = 0; k < levels.size(); ++k) {
            const auto cap = static_cast<double>(levels[k].capacity);
            if (levels[k].capacity == 0 || size <= cap) {
                log = std::log(levels[k].bandwidth);
                break;
            }
            if (size < 2.0 * cap) {
                const double t = std::log2(size / cap);
                log = (1 - t) * std::log(levels[k].bandwidth)
                    + t * std::log(levels[k + 1].bandwidth);
                break;
            }
        }
        BandwidthSample s;
        s.workingSet = static_cast<std::uint64_t>(size);
        s.best = std::exp(log) * 1e9 * (1.0 + (noise > 0.0 ? uniform(random) : 0.0));
        s.median = s.best;
        s.trials = 3;
        out.push_back(s);
    }
    return out;
}

using Files = std::map<std::string, std::string>; // sysfs cache paths and their text

QString names(const std::vector<Plateau> &plateaus)
{
    QStringList list;
    for (const auto &p : plateaus)
        list << QString::fromStdString(std::string(memoryLevelName(p.level)));
    return list.join(',');
}

QString joined(const std::vector<std::string> &warnings)
{
    QStringList list;
    for (const auto &w : warnings)
        list << QString::fromStdString(w);
    return list.join(" | ");
}

// This guest as sysfs describes cpu0: L1d and L1i 32K per CPU, L2 1024K per CPU, L3 32768K
// shared by CPUs 0-1.
const Files kGuestSysfs { { "index0/level", "1\n" }, { "index0/type", "Data\n" },
    { "index0/size", "32K\n" }, { "index0/shared_cpu_list", "0\n" }, { "index1/level", "1\n" },
    { "index1/type", "Instruction\n" }, { "index1/size", "32K\n" },
    { "index1/shared_cpu_list", "0\n" }, { "index2/level", "2\n" }, { "index2/type", "Unified\n" },
    { "index2/size", "1024K\n" }, { "index2/shared_cpu_list", "0\n" }, { "index3/level", "3\n" },
    { "index3/type", "Unified\n" }, { "index3/size", "32768K\n" },
    { "index3/shared_cpu_list", "0-1\n" } };

const CacheSizes kGuest1 { 32 * KiB, 1 * MiB, 32 * MiB, 0 }; // this guest, 1 thread
const CacheSizes kGuest2 { 64 * KiB, 2 * MiB, 32 * MiB, 0 }; // this guest, 2 threads
const std::vector<Level> kFour { { 400, 32 * KiB }, { 150, 1 * MiB }, { 80, 32 * MiB }, { 35, 0 } };

} // namespace

Q_DECLARE_METATYPE(std::vector<BandwidthSample>)
Q_DECLARE_METATYPE(std::vector<double>)
Q_DECLARE_METATYPE(CacheSizes)
Q_DECLARE_METATYPE(std::vector<Level>)
Q_DECLARE_METATYPE(Files)

class TestPlateauLabels : public QObject
{
    Q_OBJECT

private slots:
    void labels_data();
    void labels();
    void quickAgreesWithFull_data();
    void quickAgreesWithFull();
    void readsCaches_data();
    void readsCaches();
};

void TestPlateauLabels::labels_data()
{
    QTest::addColumn<std::vector<BandwidthSample>>("curve");
    QTest::addColumn<CacheSizes>("caches");
    QTest::addColumn<QString>("levels");
    QTest::addColumn<std::vector<double>>("bandwidths"); // GB/s, within `tolerance`
    QTest::addColumn<double>("tolerance");
    QTest::addColumn<QString>("warning"); // a part of the warnings; "": none at all

    const std::vector<double> four { 400, 150, 80, 35 };
    // Regions with the 2× margin for L1 32K, L2 1M, L3 32M: L1 sets ≤ 32 KiB, L2 64 KiB..1 MiB,
    // L3 2..32 MiB, DRAM ≥ 64 MiB; the sets between (32..64 KiB, 1..2 MiB, 32..64 MiB) are
    // boundary sets and count for nothing. Each level's plateau is inside its region.
    QTest::newRow("clean 4 levels")
        << sweep(kFour) << kGuest1 << "L1,L2,L3,DRAM" << four << 0.01 << "";
    // ±15 %: the median of a level's 5 to 13 sets stays within 10 % of the level.
    QTest::newRow("±15 % noise") << sweep(kFour, 0.15) << kGuest1 << "L1,L2,L3,DRAM" << four << 0.10
                                 << "";
    // No L3 reported: DRAM starts at 2 × the L2 (2 MiB); nothing is named L3.
    QTest::newRow("no L3 on the machine")
        << sweep({ { 400, 32 * KiB }, { 150, 1 * MiB }, { 35, 0 } })
        << CacheSizes { 32 * KiB, 1 * MiB, 0, 0 } << "L1,L2,DRAM"
        << std::vector<double> { 400, 150, 35 } << 0.01 << "";
    // The L2 speed holds to 4 MiB: the 150 GB/s stretch (64 KiB..4 MiB) is split at the L2
    // boundary. Its part in the L3 region (2, 2.5, 3.2, 4 MiB: 4 sets) loses to the 80 GB/s
    // stretch's 7 sets (8..32 MiB), so L3 is 80 and L2 keeps 150.
    QTest::newRow("a plateau straddling L2/L3")
        << sweep({ { 400, 32 * KiB }, { 150, 4 * MiB }, { 80, 32 * MiB }, { 35, 0 } }) << kGuest1
        << "L1,L2,L3,DRAM" << four << 0.01 << "";
    // An 8 MiB LLC: DRAM from 16 MiB, so the 64 MiB sets are DRAM's.
    QTest::newRow("small LLC (8 MiB)")
        << sweep({ { 400, 32 * KiB }, { 150, 1 * MiB }, { 80, 8 * MiB }, { 35, 0 } })
        << CacheSizes { 32 * KiB, 1 * MiB, 8 * MiB, 0 } << "L1,L2,L3,DRAM" << four << 0.01 << "";
    // This guest with 2 threads (L1 64K, L2 2M, L3 32M) where the host caches to 128 MiB at
    // 60 GB/s: the 64..128 MiB sets are past 2 × the LLC, yet not DRAM's figure: DRAM is the
    // stretch of the largest sets (256 MiB..1 GiB, 35 GB/s), and a warning says the bandwidth
    // still falls. Named in order, this curve's 60 GB/s stretch was "L3" or "DRAM".
    QTest::newRow("a host cache past the reported LLC")
        << sweep({ { 400, 64 * KiB }, { 150, 2 * MiB }, { 80, 32 * MiB }, { 60, 128 * MiB },
               { 35, 0 } })
        << kGuest2 << "L1,L2,L3,DRAM" << four << 0.01 << "still falls past the last-level";
    // The sweep stops at 48 MiB, below 2 × 32 MiB: no set is DRAM's, and the 32..48 MiB sets
    // are boundary sets. Never the L3 plateau called DRAM.
    QTest::newRow("largest set below 2 × LLC")
        << sweep(kFour, 0.0, 3, 48 * MiB) << kGuest1 << "L1,L2,L3"
        << std::vector<double> { 400, 150, 80 } << 0.01 << "no DRAM level";
    // L3 at 180 GB/s beats L2's 150: the names stay by size, and a warning says so.
    QTest::newRow("lower level faster than upper")
        << sweep({ { 400, 32 * KiB }, { 150, 1 * MiB }, { 180, 32 * MiB }, { 35, 0 } }) << kGuest1
        << "L1,L2,L3,DRAM" << std::vector<double> { 400, 150, 180, 35 } << 0.01
        << "L3 (180 GB/s) measures faster than L2 (150 GB/s)";
}

void TestPlateauLabels::labels()
{
    QFETCH(std::vector<BandwidthSample>, curve);
    QFETCH(CacheSizes, caches);
    QFETCH(QString, levels);
    QFETCH(std::vector<double>, bandwidths);
    QFETCH(double, tolerance);
    QFETCH(QString, warning);
    const LabelledPlateaus got = labelPlateaus(curve, caches);
    const QString warnings = joined(got.warnings);
    QCOMPARE(names(got.levels), levels);
    QCOMPARE(got.levels.size(), bandwidths.size());
    if (warning.isEmpty())
        QVERIFY2(got.warnings.empty(), qPrintable(warnings));
    else
        QVERIFY2(warnings.contains(warning), qPrintable(warnings));
    const std::uint64_t llc = caches.lastLevel();
    for (std::size_t i = 0; i < got.levels.size(); ++i) {
        const Plateau &p = got.levels[i];
        const double gbps = p.bandwidth / 1e9;
        QVERIFY2(std::abs(gbps / bandwidths[i] - 1.0) <= tolerance,
            qPrintable(QString("%1: %2 GB/s").arg(i).arg(gbps)));
        // Inside its region: L1 ≤ l1, L2 in [2 l1, l2], L3 in [2 l2, l3], DRAM ≥ 2 LLC.
        switch (p.level) {
        case MemoryLevel::L1:
            QVERIFY(p.lastWorkingSet <= caches.l1);
            break;
        case MemoryLevel::L2:
            QVERIFY(p.firstWorkingSet >= 2 * caches.l1 && p.lastWorkingSet <= caches.l2);
            break;
        case MemoryLevel::L3:
            QVERIFY(p.firstWorkingSet >= 2 * caches.l2 && p.lastWorkingSet <= caches.l3);
            break;
        default:
            QCOMPARE(p.level, MemoryLevel::DRAM);
            QVERIFY(p.firstWorkingSet >= 2 * llc);
        }
        QVERIFY(p.points >= 2 && p.maxBandwidth >= p.bandwidth);
    }
}

void TestPlateauLabels::quickAgreesWithFull_data()
{
    QTest::addColumn<std::vector<Level>>("levels");
    QTest::addColumn<CacheSizes>("caches");
    QTest::addColumn<QString>("expected");

    // The default run: 3 sets per octave to 1 GiB; the quick one: 2 per octave to 512 MiB
    // (both past 4 × a 32 MiB LLC). The same machine gets the same levels from both, within
    // 10 % of each other, with 5 % noise on each.
    QTest::newRow("this guest, 2 threads")
        << std::vector<Level> { { 400, 64 * KiB }, { 150, 2 * MiB }, { 170, 32 * MiB }, { 35, 0 } }
        << kGuest2 << "L1,L2,L3,DRAM";
    QTest::newRow("this guest, 1 thread") << kFour << kGuest1 << "L1,L2,L3,DRAM";
    QTest::newRow("8 MiB LLC") << std::vector<Level> { { 400, 32 * KiB }, { 150, 1 * MiB },
        { 80, 8 * MiB }, { 35, 0 } }
                               << CacheSizes { 32 * KiB, 1 * MiB, 8 * MiB, 0 } << "L1,L2,L3,DRAM";
    QTest::newRow("no L3") << std::vector<Level> { { 400, 32 * KiB }, { 150, 1 * MiB }, { 35, 0 } }
                           << CacheSizes { 32 * KiB, 1 * MiB, 0, 0 } << "L1,L2,DRAM";
}

void TestPlateauLabels::quickAgreesWithFull()
{
    QFETCH(std::vector<Level>, levels);
    QFETCH(CacheSizes, caches);
    QFETCH(QString, expected);
    const auto full = labelPlateaus(sweep(levels, 0.05, 3, 1 * GiB), caches);
    const auto quick = labelPlateaus(sweep(levels, 0.05, 2, 512 * MiB), caches);
    QCOMPARE(names(full.levels), expected);
    QCOMPARE(names(quick.levels), expected);
    for (std::size_t i = 0; i < full.levels.size(); ++i)
        QVERIFY(std::abs(quick.levels[i].bandwidth / full.levels[i].bandwidth - 1.0) < 0.10);
}

void TestPlateauLabels::readsCaches_data()
{
    QTest::addColumn<Files>("files");
    QTest::addColumn<int>("count"); // data and unified caches
    QTest::addColumn<CacheSizes>("one"); // cacheSizesFor 1 thread
    QTest::addColumn<CacheSizes>("two"); // and 2 threads

    // This guest: the instruction cache left out; 2 threads hold two private L1s and L2s
    // (2 × 32 KiB, 2 × 1 MiB) and one shared L3 (32 MiB).
    QTest::newRow("this guest") << kGuestSysfs << 3 << kGuest1 << kGuest2;
    // Sizes without a unit are bytes; an L3 per CPU doubles with 2 threads.
    QTest::newRow("bytes, private L3")
        << Files { { "index0/level", "1" }, { "index0/type", "Data" }, { "index0/size", "49152" },
               { "index1/level", "3" }, { "index1/type", "Unified" }, { "index1/size", "8M" } }
        << 2 << CacheSizes { 48 * KiB, 0, 8 * MiB, 0 } << CacheSizes { 96 * KiB, 0, 16 * MiB, 0 };
    QTest::newRow("no sysfs") << Files {} << 0 << CacheSizes {} << CacheSizes {};
}

void TestPlateauLabels::readsCaches()
{
    QFETCH(Files, files);
    QFETCH(int, count);
    QFETCH(CacheSizes, one);
    QFETCH(CacheSizes, two);
    const auto caches = readCaches([&](const std::string &path) {
        const auto it = files.find(path);
        return it == files.end() ? std::string() : it->second;
    });
    QCOMPARE(static_cast<int>(caches.size()), count);
    for (const auto &c : caches)
        QVERIFY(c.type != "Instruction" && c.size > 0);
    QVERIFY(cacheSizesFor(caches, 1) == one);
    QVERIFY(cacheSizesFor(caches, 2) == two);
}

QTEST_GUILESS_MAIN(TestPlateauLabels)
#include "tst_plateau_labels.moc"
