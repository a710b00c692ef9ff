// The format registry (core/io/format_registry.h) drives detection, dispatch, the "tried every
// format" message, the file dialog's filters and the command line's option check: every row
// must be whole and consistent, and each format must be recognised from its example file.
#include "core/io/format_registry.h"
#include "core/io/readers.h"
#include "core/io/sniff.h"
#include "core/io/text.h"
#include "tests/support/reader_test_support.h"
#include "tests/support/testpaths.h"

#include <QFileInfo>
#include <QSet>
#include <QTest>

#include <algorithm>

using namespace ridgepoint;

Q_DECLARE_METATYPE(ridgepoint::FileFormat)

class TestFormatRegistry : public QObject
{
    Q_OBJECT

private slots:
    void idsKeysAndNamesAreUnique();
    void everyRowIsWhole();
    void exactlyOneFormatIsWhatIsLeft();
    void detectsEveryFormatFromItsExample_data();
    void detectsEveryFormatFromItsExample();
    void readsEveryExampleForWhatItGives_data();
    void readsEveryExampleForWhatItGives();
    void triesTheMetricCsvBeforeNcu();
    void triedMessageNamesEveryFormatOfItsKind_data();
    void triedMessageNamesEveryFormatOfItsKind();
    void triedMessagesInRegistryOrder();
    void fileDialogPatternsComeFromTheRegistry();
    void fileDialogFiltersNameTheFamilies();
    void readOptionsFollowTheRegistry();
    void nerscTextGivesWhatItsLinesHold();
    void oneWordingForAnUnknownKey();
};

void TestFormatRegistry::idsKeysAndNamesAreUnique()
{
    QSet<int> ids;
    QSet<QString> keys;
    QSet<QString> names;
    for (const FormatEntry &format : fileFormats()) {
        const QString key = QString::fromUtf8(format.key.data(), qsizetype(format.key.size()));
        QVERIFY2(!ids.contains(int(format.id)), qPrintable(key));
        QVERIFY2(!keys.contains(key), qPrintable(key));
        QVERIFY2(!names.contains(QString::fromUtf8(format.name.data())), qPrintable(key));
        ids.insert(int(format.id));
        keys.insert(key);
        names.insert(QString::fromUtf8(format.name.data(), qsizetype(format.name.size())));
        // A stable id: lower case, digits and dashes.
        QVERIFY2(std::all_of(format.key.begin(), format.key.end(),
                     [](char c) {
                         return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
                     }),
            qPrintable(key));
        QCOMPARE(formatEntry(format.id).key, format.key);
        QCOMPARE(fileFormatName(format.id), format.name);
    }
    // The ids are the enum's values 0..n-1, each with its row.
    for (int i = 0; i < int(fileFormats().size()); ++i)
        QCOMPARE(int(formatEntry(FileFormat(i)).id), i);
}

void TestFormatRegistry::everyRowIsWhole()
{
    for (const FormatEntry &format : fileFormats()) {
        const QString key = QString::fromUtf8(format.key.data(), qsizetype(format.key.size()));
        QVERIFY2(!format.name.empty() && !format.family.empty(), qPrintable(key));
        QVERIFY2(!format.patterns.empty(), qPrintable(key));
        QVERIFY2(!format.example.empty(), qPrintable(key));
        QVERIFY2(format.readPoints || format.readMachines, qPrintable(key));
        // What it gives is what its readers can read (an ncu page may hold the roofline's peaks
        // too, so a points format may have a machine reader; never the other way round).
        if (format.gives != Gives::Machine)
            QVERIFY2(format.readPoints, qPrintable(key));
        if (format.gives != Gives::Points)
            QVERIFY2(format.readMachines, qPrintable(key));
        // A clause for each side it reads, none for the other.
        QCOMPARE(format.triedAsPoints.empty(), !format.readPoints);
        QCOMPARE(format.triedAsMachines.empty(), !format.readMachines);
        // The options it takes are a profiler's.
        if (format.options == ReadOptionSet::Rocprof)
            QVERIFY2(format.readPoints, qPrintable(key));
        QVERIFY2(!format.detect || format.priority > 0, qPrintable(key));
    }
}

void TestFormatRegistry::exactlyOneFormatIsWhatIsLeft()
{
    const auto without = std::count_if(fileFormats().begin(), fileFormats().end(),
        [](const FormatEntry &format) { return format.detect == nullptr; });
    QCOMPARE(without, 1);
    QVERIFY(fallbackFormat().detect == nullptr);
    QVERIFY(fallbackFormat().readPoints);
    QCOMPARE(formatsByPriority().size() + 1, fileFormats().size());
    for (std::size_t i = 1; i < formatsByPriority().size(); ++i)
        QVERIFY(formatsByPriority()[i - 1]->priority <= formatsByPriority()[i]->priority);
}

void TestFormatRegistry::detectsEveryFormatFromItsExample_data()
{
    QTest::addColumn<QString>("example");
    QTest::addColumn<FileFormat>("format");
    for (const FormatEntry &format : fileFormats())
        QTest::newRow(format.key.data())
            << QString::fromUtf8(format.example.data(), qsizetype(format.example.size()))
            << format.id;
}

void TestFormatRegistry::detectsEveryFormatFromItsExample()
{
    QFETCH(QString, example);
    QFETCH(FileFormat, format);
    QVERIFY2(QFileInfo::exists(test::dataPath(example)), qPrintable(example));
    const std::string text = test::readTestData(example.toStdString());
    const auto detected = detectFileFormat(text);
    if (&formatEntry(format) == &fallbackFormat()) {
        QVERIFY2(!detected, fileFormatName(*detected).data());
        QCOMPARE(*readPointsFile(text, "f").format, format);
        return;
    }
    QVERIFY(detected);
    QCOMPARE(*detected, format);
}

void TestFormatRegistry::readsEveryExampleForWhatItGives_data()
{
    detectsEveryFormatFromItsExample_data();
}

void TestFormatRegistry::readsEveryExampleForWhatItGives()
{
    QFETCH(QString, example);
    QFETCH(FileFormat, format);
    const std::string text = test::readTestData(example.toStdString());
    const Gives gives = givesOf(format, text);
    // Some examples hold a failed launch on purpose (the ncu raw page): points must come out,
    // not necessarily from every row.
    if (gives != Gives::Machine) {
        const auto read = readPointsFile(text, "f");
        QCOMPARE(*read.format, format);
        QVERIFY2(!read.points.points.empty(), qPrintable(test::joined(read.points.diagnostics)));
    }
    if (gives != Gives::Points) {
        const auto read = readHardwareFile(text, "f");
        QCOMPARE(*read.format, format);
        QVERIFY2(
            !read.hardware.machines.empty(), qPrintable(test::joined(read.hardware.diagnostics)));
    }
}

void TestFormatRegistry::triesTheMetricCsvBeforeNcu()
{
    // Its "ID,Kernel Name" header would pass for ncu's details page.
    const auto &order = formatsByPriority();
    const auto at = [&](FileFormat id) {
        return std::find_if(order.begin(), order.end(), [id](const FormatEntry *format) {
            return format->id == id;
        }) - order.begin();
    };
    QVERIFY(at(FileFormat::MetricValuesCsv) < at(FileFormat::NcuDetails));
    // Hardware JSON takes any JSON: after the JSON formats that say what they are, before text.
    QVERIFY(at(FileFormat::PointsJson) < at(FileFormat::HardwareJson));
    QVERIFY(at(FileFormat::ErtJson) < at(FileFormat::HardwareJson));
    QVERIFY(at(FileFormat::HardwareJson) < at(FileFormat::AdvisorSurvey));
}

void TestFormatRegistry::triedMessageNamesEveryFormatOfItsKind_data()
{
    QTest::addColumn<bool>("points");
    QTest::newRow("points") << true;
    QTest::newRow("machines") << false;
}

void TestFormatRegistry::triedMessageNamesEveryFormatOfItsKind()
{
    QFETCH(bool, points);
    const ReadFor side = points ? ReadFor::Points : ReadFor::Machines;
    const std::string message = triedEveryFormat(side);
    for (const FormatEntry &format : fileFormats()) {
        const std::string_view clause = points ? format.triedAsPoints : format.triedAsMachines;
        if (reads(format, side))
            QVERIFY2(message.find(clause) != std::string::npos, format.key.data());
    }
    // The same text reaches the user for a file of no known shape.
    const std::string text = test::readTestData("bad/unknown_shape.txt");
    const auto diagnostics = points ? readPointsFile(text, "u.txt").points.diagnostics
                                    : readHardwareFile(text, "u.txt").hardware.diagnostics;
    QCOMPARE(test::joined(diagnostics), QString::fromStdString("u.txt: " + message));
}

void TestFormatRegistry::triedMessagesInRegistryOrder()
{
    // Points: the order it always had. Machines: the registry's order (it used to list ERT's
    // roofline.json second and ncu's section fifth, for no reason).
    QCOMPARE(QString::fromStdString(triedEveryFormat(ReadFor::Points)),
        QString(
            "not a file Ridgepoint can read; tried points CSV (no header row naming a kernel "
            "column and a flops, bytes or intensity column), points JSON (no \"format\": "
            "\"ridgepoint-points\"), Nsight Compute CSV (no \"ID\",...,\"Kernel Name\" or "
            "\"Process ID\",...,\"Invocations\" header), rocprof-compute pmc_perf.csv (no "
            "Dispatch_ID,Kernel_Name header), Intel Advisor survey (no \"ID\",\"Function Call "
            "Sites and Loops\" header), likwid-perfctr -O (no STRUCT,Info / TABLE, lines), "
            "NERSC roofline text (no memroofs, AI_<level> and FLOPS lines), mohamed/roofline "
            "apps.csv (no \"# name, intensity, ...\" header), ncu-like metric CSV (no ID,Kernel "
            "Name,Host Name,Metric Name,Metric Value header), PyTorch profiler trace (no "
            "\"traceEvents\" with \"deviceProperties\" or \"schemaVersion\")"
            ", Vidur per-operator CSV (no "
            "time_stats.<operator>...,num_tokens,...num_tensor_parallel_workers header)"));
    QCOMPARE(QString::fromStdString(triedEveryFormat(ReadFor::Machines)),
        QString("not a file Ridgepoint can read; tried hardware JSON (no \"compute\" and "
                "\"memory\" or \"format\": \"ridgepoint-hardware\"), Nsight Compute roofline "
                "section (no \"Body Item Label\" with \"... Precision Roofline\" rows), "
                "rocprof-compute roofline.csv (no device,HBMBw,... header), Intel Advisor roofs "
                "(no Name,Bandwidth header), ERT roofline.json (no \"empirical\" object), ERT sum "
                "(no \"<number> GFLOPs\" first line), NERSC roofline text (no memroofs and "
                "comproofs lines), GPU-Roofline-Profiler peaks.csv (no "
                "label,peak_flops,peak_bandwidth header), mohamed/roofline hw_db.csv (no "
                "name,GFLOP/s,GB/s,price rows), PyTorch profiler trace (no \"traceEvents\" "
                "with \"deviceProperties\")"));
}

void TestFormatRegistry::fileDialogPatternsComeFromTheRegistry()
{
    const auto all = fileDialogPatterns(std::nullopt);
    for (const FormatEntry &format : fileFormats()) {
        for (const std::string_view pattern : words(format.patterns)) {
            QVERIFY2(std::find(all.begin(), all.end(), pattern) != all.end(), format.key.data());
            for (const ReadFor side : { ReadFor::Points, ReadFor::Machines }) {
                const bool givesSide = format.gives == Gives::Both
                    || (format.gives == Gives::Points) == (side == ReadFor::Points);
                const auto patterns = fileDialogPatterns(side);
                if (givesSide)
                    QVERIFY2(std::find(patterns.begin(), patterns.end(), pattern) != patterns.end(),
                        format.key.data());
            }
        }
    }
    // Every pattern offered is a format's, each once.
    for (const std::optional<ReadFor> side : { std::optional<ReadFor>(),
             std::optional(ReadFor::Points), std::optional(ReadFor::Machines) }) {
        const auto patterns = fileDialogPatterns(side);
        for (const std::string &pattern : patterns) {
            QCOMPARE(std::count(patterns.begin(), patterns.end(), pattern), 1);
            QVERIFY2(std::any_of(fileFormats().begin(), fileFormats().end(),
                         [&](const FormatEntry &format) {
                             const auto own = words(format.patterns);
                             return std::find(own.begin(), own.end(), pattern) != own.end();
                         }),
                pattern.c_str());
        }
    }
    // An ERT sum file is named `sum`: the machine filter must show it.
    const auto machines = fileDialogPatterns(ReadFor::Machines);
    QVERIFY(std::find(machines.begin(), machines.end(), "sum") != machines.end());
}

void TestFormatRegistry::fileDialogFiltersNameTheFamilies()
{
    QCOMPARE(QString::fromStdString(fileDialogFilter("Points", ReadFor::Points)),
        QString("Points: CSV, points JSON, Nsight Compute, rocprof-compute, Advisor, likwid, "
                "NERSC roofline text, mohamed/roofline, ncu-like metric CSV, PyTorch profiler "
                "trace, Vidur (*.csv *.txt *.json *.json.gz *.pt.trace.json)"));
    QCOMPARE(QString::fromStdString(fileDialogFilter("Machines", ReadFor::Machines)),
        QString("Machines: hardware JSON, Nsight Compute, rocprof-compute, Advisor, ERT, NERSC "
                "roofline text, GPU-Roofline-Profiler, mohamed/roofline, PyTorch profiler trace "
                "(*.json *.csv *.txt sum *.json.gz *.pt.trace.json)"));
    // Every format that gives machines is named by its family (the dialog used to name 5 of 9).
    const std::string machines = formatFamilies(ReadFor::Machines);
    for (const FormatEntry &format : fileFormats()) {
        if (format.gives != Gives::Points)
            QVERIFY2(machines.find(format.family) != std::string::npos, format.key.data());
    }
}

void TestFormatRegistry::readOptionsFollowTheRegistry()
{
    QCOMPARE(readOptionsOf(FileFormat::NcuDetails), ReadOptionSet::Ncu);
    QCOMPARE(readOptionsOf(FileFormat::NcuRooflineSection), ReadOptionSet::Ncu);
    QCOMPARE(readOptionsOf(FileFormat::RocprofPmcPerf), ReadOptionSet::Rocprof);
    QCOMPARE(readOptionsOf(FileFormat::RocprofRoofline), ReadOptionSet::None);
    QCOMPARE(readOptionsOf(FileFormat::PointsCsv), ReadOptionSet::None);
}

void TestFormatRegistry::nerscTextGivesWhatItsLinesHold()
{
    const std::string roofs = "memroofs 12000 800\nmem_roof_names 'L1' 'HBM'\ncomproofs 6000\n";
    const std::string kernels = "AI_HBM 2.5\nFLOPS 1500\nlabels 'a'\n";
    QCOMPARE(givesOf(FileFormat::NerscRoofline, roofs), Gives::Machine);
    QCOMPARE(givesOf(FileFormat::NerscRoofline, kernels), Gives::Points);
    QCOMPARE(givesOf(FileFormat::NerscRoofline, roofs + kernels), Gives::Both);
    QCOMPARE(givesOf(FileFormat::ErtSum, "anything"), Gives::Machine);
}

void TestFormatRegistry::oneWordingForAnUnknownKey()
{
    // The JSON readers (points, hardware, ERT) and the NERSC text say it alike: the path, the
    // key, and the keys expected there.
    const auto warnings = [](const std::vector<Diagnostic> &diagnostics) {
        QStringList out;
        for (const Diagnostic &d : diagnostics) {
            if (d.severity == Severity::Warning)
                out << QString::fromStdString(d.toString());
        }
        return out.join('\n');
    };
    const auto points = readPointsFile(
        R"({"format": "ridgepoint-points", "version": 1, "colour": "red", "points": [)"
        R"({"name": "k", "flops": 1, "bytes": [{"bytes": 1}], "byteFactor": 2, "group": 3}]})",
        "p.json");
    QCOMPARE(warnings(points.points.diagnostics),
        QString("p.json: warning: unknown key \"colour\" ignored (expected one of format, "
                "version, points)\n"
                "p.json: warning: points[0]: unknown key \"byteFactor\" ignored (expected one "
                "of name, flops, bytes, seconds, performance, intensity, level_intensities, "
                "precision, unit, group, time_statistics, source)\n"
                "p.json: warning: points[0].group: expected a string, found number; ignored"));
    QCOMPARE(points.points.points.size(), std::size_t { 1 });
    const auto hardware = readHardwareFile(R"({"name": "m", "colour": "red", "compute": [)"
                                           R"({"name": "c", "precision": "fp32", "peak": 1e12}],)"
                                           R"("memory": [{"name": "d", "level": "DRAM", )"
                                           R"("bandwidth": 1e11}]})",
        "h.json");
    QCOMPARE(warnings(hardware.hardware.diagnostics),
        QString("h.json: warning: machine: unknown key \"colour\" ignored (expected one of "
                "format, version, name, aliases, vendor, kind, source, notes, "
                "sustained_fraction, default_compute, compute, memory, ridges, measurement, "
                "provenance, calibration, capacities, launch_latency, latencies, energy, "
                "compute_units)"));
    const auto ert = readHardwareFile(R"({"empirical": {"gflops": {"data": [["GFLOPs", 10]]},)"
                                      R"("gbytes": {"data": [["DRAM", 5]], "units": "GB/s"}},)"
                                      R"("colour": "red"})",
        "e.json");
    QCOMPARE(warnings(ert.hardware.diagnostics),
        QString("e.json: warning: unknown key \"colour\" ignored (expected one of empirical, "
                "spec)\n"
                "e.json: warning: empirical.gbytes: unknown key \"units\" ignored (expected one "
                "of data, metadata)"));
    QCOMPARE(ert.hardware.machines.size(), std::size_t { 1 });
}

QTEST_GUILESS_MAIN(TestFormatRegistry)
#include "tst_formatregistry.moc"
