// analyze's report, byte for byte, in every format against the output of the build before the
// speed work of issue 17 (main at 26823cf): a faster parser, writer or hand-off between threads
// must not change a single byte of stdout, nor the messages on stderr. (The JSON's numbers
// changed once since, on purpose: see generatedFileAsBefore_data.)
#include "tests/support/cli_run.h"
#include "tests/support/testpaths.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

namespace test = ridgepoint::test;

namespace {

using test::Run;
using test::runCli;

QByteArray readAll(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return file.readAll();
}

QStringList formatOptions(const QString &format)
{
    if (format == "compact")
        return { "--compact" };
    return { "--format", format };
}

// Where the output of a failed comparison is left, for a diff against the fixture.
QString keep(const QByteArray &out, const QString &name)
{
    static QTemporaryDir dir;
    dir.setAutoRemove(false);
    QString path = dir.filePath(name);
    QFile file(path);
    if (file.open(QIODevice::WriteOnly))
        file.write(out);
    return path;
}

} // namespace

class TestCliUnchanged : public QObject
{
    Q_OBJECT

private slots:
    void smallFileAsBefore_data();
    void smallFileAsBefore();
    void generatedFileAsBefore_data();
    void generatedFileAsBefore();
};

void TestCliUnchanged::smallFileAsBefore_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<QString>("expected");
    // The 3-kernel Nsight Compute file with L1, L2 and DRAM bytes on "A100 40GB"; the fixtures
    // are 26823cf's output of `analyze --hardware "A100 40GB" <format>
    // ncu_levels_daxpy_stencil.csv`, run in tests/data/ncu (the JSON names the file as given),
    // with the two aliases the preset gained for the device names of profiler traces, and in
    // JSON the machine's on-chip "capacities" (docs/MODEL.md §12), and daxpy held to FP64 CUDA
    // instead of FP64 tensor (its FLOPs are SASS counts, docs/MODEL.md §4.1: T_math and T_max
    // grow), and the links kept per direction (NVLink 600 → 300 GB/s, PCIe 64 → 32, with
    // "direction" and the halving's formula in JSON, "each way" in the table, the ridges against
    // them doubled: docs/PRESETS.md, "Links"), and in JSON the machine's "compute_units",
    // nothing else changed.
    QTest::newRow("table") << "table"
                           << "ncu_daxpy_stencil.txt";
    QTest::newRow("csv") << "csv"
                         << "ncu_daxpy_stencil.csv";
    QTest::newRow("markdown") << "markdown"
                              << "ncu_daxpy_stencil.md";
    QTest::newRow("json") << "json"
                          << "ncu_daxpy_stencil.json";
    QTest::newRow("compact") << "compact"
                             << "ncu_daxpy_stencil.jsonl";
}

void TestCliUnchanged::smallFileAsBefore()
{
    QFETCH(QString, format);
    QFETCH(QString, expected);
    const QDir source(test::sourcePath());
    const Run run = runCli(QStringList { "analyze", "--hardware", "A100 40GB" }
            << formatOptions(format) << "ncu_levels_daxpy_stencil.csv",
        source.filePath("tests/data/ncu"));
    QCOMPARE(run.status, 0);
    const QByteArray before = readAll(source.filePath("tests/data/cli/unchanged/" + expected));
    QVERIFY(!before.isEmpty());
    if (run.out != before)
        qWarning("output left in %s", qPrintable(keep(run.out, expected)));
    QCOMPARE(run.out, before);
}

void TestCliUnchanged::generatedFileAsBefore_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<QByteArray>("sha256");
    // tests/data/cli/unchanged/generated_points.csv: `bench/make_points.py 1500 FILE --seed 17`
    // (past the 1000-row look-ahead of the tables), then by hand: bytes_l2 = 3 × bytes on every
    // 5th row, bytes_l1 = 9 × bytes on every 13th row after row 1100 (a level first seen past
    // the look-ahead: the tables' "also L1" notes), precision fp32 on every 7th row, bf16 on
    // the other odd ones, none on the rest; a name with a comma and quotes (row 100), a time
    // of 1e-12 s (row 50: faster than the roofline, the doctor's note), no time (row 60), a unit
    // (row 70: "2.5 GFLOP"), a bad FLOP count (row 1200) and a negative byte count (row 1300).
    // The SHA-256 of 26823cf's stdout of `analyze --hardware h100 <format> generated_points.csv`
    // run in that folder (the fixtures themselves would be 0.4-2 MB each). JSON and compact: of
    // the build that gave numbers the shortest, closest digits (docs/FILES.md, "Numbers in
    // reports"); 46 of the document's 66,064 lines differ from 26823cf's, each a number with
    // fewer or closer digits, and both outputs parse to the same values (checked with Python's
    // json module, documents and lines compared whole). Since then JSON and compact also carry
    // the H100's "capacities" and "energy" and each point's three energy keys (null: the preset
    // gives the power cap only, docs/MODEL.md §14); with those lines taken out, the outputs hash
    // to the earlier 8f66d947... and eed28889... exactly. Then the H100's L1 and L2 roofs moved
    // to the 1.83 GHz its tensor peaks imply (10.14 → 9.37 TB/s, 33.45 → 30.92) and its links
    // to one direction (docs/PRESETS.md, "Links"): points whose L2 roof binds changed, and 4
    // more are faster than the roofline (21, was 17); the output against the old H100 file given
    // as --hardware differs in those rows only. JSON and compact then gained the machine's
    // "compute_units" (its 132 SMs) and nothing else. Then the H100 got its 1 µs launch latency
    // (docs/MODEL.md §13): with the earlier file given as --hardware the five outputs hash as
    // above before this change (f9e7f388..., f6643e8a..., 917585e0..., 1e62dc77..., b1c2beeb...).
    // Exactly the 255 rows whose T_min was under 1 µs changed (checked row by row): bound
    // latency, T_min 1 µs, attainable F / 1 µs, T_max max(T_max, 1 µs), utilization and payoff
    // with them; 98 of them, timed under 1 µs (down to 2.6 ns: the generator's times are
    // invented), are now faster than the roofline (119, was 21) with "a time under the launch
    // latency"; 6 of the 7 already impossible on their roofs name it before the generic cause.
    // JSON and compact gained the machine's "launch_latency"; table and markdown columns widen.
    // Then the H100 got its static power and energies per FLOP and per byte (docs/MODEL.md
    // §14.2): JSON and compact only; with the earlier file given as --hardware they hash to
    // 68a8e9a5... and fecdac5c... as before this change, and against those outputs exactly the
    // energy object's members and the points' three energy keys differ (1497 energy_joules and
    // flops_per_joule, 1498 power_capped_attainable no longer null). Then the H100 got the
    // alias CUDA names it by in a PyTorch trace ("NVIDIA H100 80GB HBM3"): JSON and compact
    // differ from 9e91e394... and c2155e1f... in the machine's "aliases" only.
    QTest::newRow("table")
        << "table"
        << QByteArray("40ac97fbe016bd413b61a7ecc46548ce36614206d13c710cda3021a9981c17f9");
    QTest::newRow("csv") << "csv"
                         << QByteArray(
                                "928e62a6897c3988f874e05f1518b34ba3b7379bdf2a08d203e289dffdbe72f9");
    QTest::newRow("markdown")
        << "markdown"
        << QByteArray("615b76ecda823da8d2436b7e57142458adebc087ea0a3391249df94874c2c311");
    QTest::newRow("json")
        << "json" << QByteArray("e2b388d73c799421e12fb9ba5c5668293d58081c8bbf240ef94381b96d98cb64");
    QTest::newRow("compact")
        << "compact"
        << QByteArray("563e28accc48e39e04f5e04fd13eb0b82ebf0a367d92627d33e3ee2f7c63e94f");
}

void TestCliUnchanged::generatedFileAsBefore()
{
    QFETCH(QString, format);
    QFETCH(QByteArray, sha256);
    const QDir source(test::sourcePath());
    const Run run = runCli(QStringList { "analyze", "--hardware", "h100" }
            << formatOptions(format) << "generated_points.csv",
        source.filePath("tests/data/cli/unchanged"));
    QCOMPARE(run.status, 0);
    // The errors keep their line and column; the rows around them are still reported.
    QCOMPARE(run.err,
        QByteArray("generated_points.csv:1202:7: column \"flops\": \"x1\" is not an operation "
                   "count: it does not start with a number (expected a number with an optional "
                   "unit in FLOP, e.g. \"2.5 GFLOP\" or \"2.5e9\")\n"
                   "generated_points.csv:1302:19: column \"bytes\": \"-5\" must be greater than "
                   "zero (a log-log roofline cannot show it)\n"
                   "generated_points.csv: 2 of 1500 rows skipped\n"
                   "119 point(s) are faster than the roofline allows: counts or peaks are off\n"));
    const QByteArray hash = QCryptographicHash::hash(run.out, QCryptographicHash::Sha256).toHex();
    if (hash != sha256)
        qWarning("output left in %s", qPrintable(keep(run.out, "generated." + format)));
    QCOMPARE(hash, sha256);
}

QTEST_GUILESS_MAIN(TestCliUnchanged)
#include "tst_cli_unchanged.moc"
