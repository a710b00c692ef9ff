// The compact point table (core/model/point_table.h): every kind of point comes back member for
// member, its accessors agree with the KernelPoint's, and a long run of insertions, erasures and
// replacements leaves it equal to a plain vector of points given the same edits.
#include "core/model/point_table.h"

#include <QTest>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

using namespace ridgepoint;

Q_DECLARE_METATYPE(ridgepoint::KernelPoint)

namespace {

std::string number(const std::optional<double> &value)
{
    if (!value)
        return "-";
    char text[64];
    std::snprintf(text, sizeof text, "%a", *value); // exact: every bit shows
    return text;
}

// Every member of the point, in the order of its declaration: two points are the same when
// their descriptions are.
std::string describe(const KernelPoint &p)
{
    std::string out = "name=" + p.name + " flops=" + number(p.flops) + " bytes=";
    for (const LevelBytes &level : p.bytes)
        out += std::string(level.level ? memoryLevelName(*level.level) : "main") + ":"
            + number(level.bytes) + ",";
    out += " seconds=" + number(p.seconds) + " rate=" + number(p.measuredRate)
        + " intensity=" + number(p.intensity) + " levelIntensities=";
    for (const LevelIntensity &level : p.levelIntensities)
        out += std::string(memoryLevelName(level.level)) + ":" + number(level.intensity) + ",";
    const RepeatStatistics &s = p.timeStatistics;
    out += " stats=" + number(s.min) + "/" + number(s.median) + "/" + number(s.max) + "/"
        + number(s.stddev);
    out += " precision=" + std::string(p.precision ? precisionName(*p.precision) : "-");
    out += " unit=" + std::string(computeUnitName(p.unit)) + " group=" + p.group
        + " file=" + p.source.file + ":" + std::to_string(p.source.line);
    return out;
}

KernelPoint plain(const std::string &name, double flops, double bytes, double seconds)
{
    KernelPoint p;
    p.name = name;
    p.flops = flops;
    p.bytes = { { MemoryLevel::HBM, bytes } };
    p.seconds = seconds;
    p.precision = Precision::BF16;
    p.unit = ComputeUnit::Tensor;
    p.group = "gemm";
    p.source = { "/tmp/kernels.csv", 7 };
    return p;
}

// A point of every shape the readers make, one member at a time.
std::vector<std::pair<const char *, KernelPoint>> shapes()
{
    std::vector<std::pair<const char *, KernelPoint>> out;
    out.emplace_back("one level, timed", plain("gemm_bf16", 2.5e12, 3.0e9, 1.25e-3));
    KernelPoint mainMemory = plain("axpy", 1e6, 1.2e7, 0.0);
    mainMemory.bytes = { { std::nullopt, 1.2e7 } }; // no level: the machine's main memory
    mainMemory.seconds.reset();
    mainMemory.precision.reset();
    mainMemory.unit = ComputeUnit::Unknown;
    out.emplace_back("main memory, planned", mainMemory);
    KernelPoint levels = plain("stencil (ID 4)", 8e9, 1e9, 2e-4);
    levels.bytes = { { MemoryLevel::L1, 4e10 }, { MemoryLevel::L2, 9e9 }, { std::nullopt, 1e9 } };
    levels.precision = Precision::FP64;
    levels.unit = ComputeUnit::Core;
    out.emplace_back("three levels", levels);
    KernelPoint byIntensity;
    byIntensity.name = "nersc kernel";
    byIntensity.measuredRate = 3.5e12;
    byIntensity.intensity = 0.75;
    byIntensity.levelIntensities = { { MemoryLevel::L1, 0.1 }, { MemoryLevel::L2, 0.3 } };
    byIntensity.group = "nersc";
    out.emplace_back("known by intensity and rate", byIntensity);
    KernelPoint rate = plain("rate only", 1e9, 1e8, 0.0);
    rate.seconds.reset();
    rate.measuredRate = 4e11;
    out.emplace_back("a rate, no time", rate);
    KernelPoint zeroFlops = plain("copy", 0.0, 5e8, 3e-5);
    zeroFlops.measuredRate = 1.0; // performance() is flops / seconds all the same
    out.emplace_back("zero FLOPs with a rate", zeroFlops);
    KernelPoint spread = plain("repeated", 1e10, 1e9, 5e-3);
    spread.timeStatistics = { 4e-3, 5e-3, 6.5e-3, 7e-4 };
    out.emplace_back("time spread", spread);
    KernelPoint half = plain("median only", 1e10, 1e9, 5e-3);
    half.timeStatistics.median = 5e-3;
    out.emplace_back("one statistic", half);
    KernelPoint unnamed = plain("", 1.0, 1.0, 1.0);
    unnamed.group.clear();
    unnamed.source = {};
    out.emplace_back("empty strings", unnamed);
    KernelPoint longName = plain(std::string(300, 'k') + " ∑ résumé", 1e3, 2e3, 1e-6);
    longName.group = "aten::scaled_dot_product_attention [8, 16, 4096, 128]";
    out.emplace_back("long and non-ASCII name", longName);
    KernelPoint noBytes = plain("flops only", 1e9, 0.0, 1e-3);
    noBytes.bytes.clear();
    out.emplace_back("no bytes at all", noBytes);
    KernelPoint tiny = plain("denormal", 4.9e-324, 1.7976931348623157e308, 2.2250738585072014e-308);
    tiny.precision = Precision::INT4;
    out.emplace_back("extreme numbers", tiny);
    return out;
}

} // namespace

class TestPointTable : public QObject
{
    Q_OBJECT

private slots:
    void roundTrip_data()
    {
        QTest::addColumn<KernelPoint>("point");
        for (const auto &[name, point] : shapes())
            QTest::newRow(name) << point;
    }

    // The point comes back member for member, among others of every shape, and read into a
    // point that held another shape before (fill keeps nothing of it).
    void roundTrip()
    {
        QFETCH(KernelPoint, point);
        PointTable table;
        for (const auto &[name, other] : shapes())
            table.push_back(other);
        table.push_back(point);
        const std::size_t at = table.size() - 1;
        QCOMPARE(describe(table.at(at)), describe(point));
        for (std::size_t i = 0; i < at; ++i) {
            KernelPoint reused = table.at(i);
            table.fill(at, reused);
            QCOMPARE(describe(reused), describe(point));
        }
        QCOMPARE(std::string(table.name(at)), point.name);
        QCOMPARE(std::string(table.group(at)), point.group);
        QCOMPARE(std::string(table.file(at)), point.source.file);
        QCOMPARE(table.line(at), point.source.line);
        QCOMPARE(number(table.flops(at)), number(point.flops));
        QCOMPARE(number(table.seconds(at)), number(point.seconds));
        QCOMPARE(number(table.measuredRate(at)), number(point.measuredRate));
        QCOMPARE(number(table.performance(at)), number(point.performance()));
    }

    // The whole list made from a vector, and back.
    void fromAndToVector()
    {
        std::vector<KernelPoint> points;
        for (const auto &[name, point] : shapes())
            points.push_back(point);
        const PointTable table(points);
        QCOMPARE(table.size(), points.size());
        const std::vector<KernelPoint> back = table.toVector();
        for (std::size_t i = 0; i < points.size(); ++i)
            QCOMPARE(describe(back[i]), describe(points[i]));
    }

    // A long run of the window's edits (insert, erase, replace) on the table and on a vector of
    // the same points: equal after every step, and the text of replaced names does not pile up.
    void editsMatchAVector_data()
    {
        QTest::addColumn<unsigned>("seed");
        QTest::addColumn<int>("steps");
        QTest::newRow("seed 1") << 1u << 3000;
        QTest::newRow("seed 2") << 2u << 3000;
        QTest::newRow("seed 77") << 77u << 3000;
    }
    void editsMatchAVector()
    {
        QFETCH(unsigned, seed);
        QFETCH(int, steps);
        std::mt19937 random(seed);
        const auto shaped = shapes();
        std::vector<KernelPoint> expected;
        PointTable table;
        for (int step = 0; step < steps; ++step) {
            KernelPoint point = shaped[random() % shaped.size()].second;
            point.name += " #" + std::to_string(step);
            const unsigned op = random() % 4;
            if (expected.empty() || op == 0) {
                const std::size_t at = random() % (expected.size() + 1);
                expected.insert(expected.begin() + static_cast<std::ptrdiff_t>(at), point);
                table.insert(at, point);
            } else if (op == 1 && expected.size() > 20) {
                const std::size_t at = random() % expected.size();
                expected.erase(expected.begin() + static_cast<std::ptrdiff_t>(at));
                table.erase(at);
            } else {
                const std::size_t at = random() % expected.size();
                expected[at] = point;
                table.set(at, point);
            }
            QCOMPARE(table.size(), expected.size());
            const std::size_t probe = random() % expected.size();
            QCOMPARE(describe(table.at(probe)), describe(expected[probe]));
        }
        for (std::size_t i = 0; i < expected.size(); ++i)
            QCOMPARE(describe(table.at(i)), describe(expected[i]));
        // Every point's text at most twice over (the unused part is dropped once it is as large
        // as the used part) plus the slack kept before compacting.
        std::size_t live = 0;
        for (const KernelPoint &point : expected)
            live += point.name.size();
        const PointTable fresh(expected);
        QVERIFY2(table.bytesUsed() < 3 * fresh.bytesUsed() + 64 * 1024,
            qPrintable(QStringLiteral("%1 bytes after the edits, %2 for the same points anew")
                           .arg(table.bytesUsed())
                           .arg(fresh.bytesUsed())));
        QVERIFY(live > 0);
    }

    // What a measured point costs: 56 bytes a row and its name, nothing on the side.
    void compactRows()
    {
        PointTable table;
        constexpr std::size_t kPoints = 10000;
        table.reserve(kPoints);
        for (std::size_t i = 0; i < kPoints; ++i)
            table.push_back(plain("k" + std::to_string(i), 1e9, 1e8, 1e-3));
        const double perPoint = static_cast<double>(table.bytesUsed()) / kPoints;
        QVERIFY2(perPoint < 56.0 + 2 * 6.0 + 1.0, qPrintable(QString::number(perPoint)));
    }
};

QTEST_APPLESS_MAIN(TestPointTable)
#include "tst_pointtable.moc"
