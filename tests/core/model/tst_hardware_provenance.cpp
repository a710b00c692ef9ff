// Hardware JSON version 2: provenance merged key by key, sparsity, alternate figures, the
// migration of version 1 files, their errors by JSON path, the provenance of overrides, and the
// basis of the roofs profilers' files give.
#include "core/io/formats/hardware_json.h"
#include "core/io/readers.h"
#include "tests/support/testpaths.h"

#include <QFile>
#include <QTest>

using namespace ridgepoint;

namespace {

std::string dataFile(const char *name)
{
    QFile file(test::sourcePath(QStringLiteral("tests/data/json/") + QLatin1String(name)));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll().toStdString();
}

Hardware machineOf(const char *name)
{
    const auto result = readHardwareJson(dataFile(name), name);
    return result.machines.empty() ? Hardware {} : result.machines.front();
}

const Provenance *provenanceOf(const Hardware &hw, const std::string &ceiling)
{
    if (const auto *c = hw.findCompute(ceiling))
        return &c->provenance;
    if (const auto *m = hw.findMemory(ceiling))
        return &m->provenance;
    return nullptr;
}

// One key of a provenance as text ("" when unset), so a table row can name it.
std::string keyOf(const Provenance &p, const QString &key)
{
    if (key == "basis")
        return std::string(basisName(p.basis));
    if (key == "clock_mhz")
        return p.clockMHz ? std::to_string(static_cast<int>(*p.clockMHz)) : std::string();
    const std::pair<const char *, const std::string *> texts[] = { { "source", &p.source },
        { "url", &p.url }, { "accessed", &p.accessed }, { "formula", &p.formula },
        { "tool", &p.tool }, { "date", &p.date }, { "host", &p.host }, { "clock", &p.clock },
        { "scope", &p.scope }, { "notes", &p.notes } };
    for (const auto &[name, value] : texts) {
        if (key == QLatin1String(name))
            return *value;
    }
    return "?";
}

QString allMessages(const std::vector<Diagnostic> &diagnostics)
{
    QStringList all;
    for (const auto &d : diagnostics)
        all << QString::fromStdString(d.toString());
    return all.join('\n');
}

const QString kMemory = R"("memory": [{"name": "M", "level": "DRAM", "bandwidth": 1e9}])";
const QString kCompute = R"("compute": [{"name": "C", "precision": "fp32", "peak": 1e12}])";

} // namespace

class TestHardwareProvenance : public QObject
{
    Q_OBJECT

private slots:
    void mergesMachineDefaultsKeyByKey_data();
    void mergesMachineDefaultsKeyByKey();
    void readsSparsityAndAlternates();
    void roundTripsEveryKey();
    void migratesVersion1_data();
    void migratesVersion1();
    void reportsProvenanceErrors_data();
    void reportsProvenanceErrors();
    void warnsAboutDatesClocksAndScopes_data();
    void warnsAboutDatesClocksAndScopes();
    void overridesAreGivenOnTheCommandLine();
    void figureChoiceNames_data();
    void figureChoiceNames();
    void profilersRoofsStateTheirBasis_data();
    void profilersRoofsStateTheirBasis();
};

void TestHardwareProvenance::mergesMachineDefaultsKeyByKey_data()
{
    QTest::addColumn<QString>("ceiling");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("expected");
    // The machine-level object of hardware_provenance.json, unchanged where a ceiling is silent.
    QTest::newRow("inherited basis") << "FP16 tensor"
                                     << "basis"
                                     << "spec";
    QTest::newRow("inherited source") << "FP16 tensor"
                                      << "source"
                                      << "Example GPU datasheet, table 1";
    QTest::newRow("inherited clock") << "FP16 tensor"
                                     << "clock"
                                     << "boost";
    QTest::newRow("inherited MHz") << "FP16 tensor"
                                   << "clock_mhz"
                                   << "1410";
    QTest::newRow("own notes") << "FP16 tensor"
                               << "notes"
                               << "the datasheet's 624 is the 2:4-sparse figure";
    QTest::newRow("no provenance of its own") << "FP16 tensor 2:4 sparse"
                                              << "accessed"
                                              << "2026-11-26";
    // L2 overrides basis, source and scope; url and clock still come from the machine.
    QTest::newRow("own basis") << "L2"
                               << "basis"
                               << "derived";
    QTest::newRow("own formula") << "L2"
                                 << "formula"
                                 << "80 slices x 64 B/clk x 1.41 GHz";
    QTest::newRow("own source") << "L2"
                                << "source"
                                << "Example GPU architecture whitepaper, section 3";
    QTest::newRow("own scope wins") << "L2"
                                    << "scope"
                                    << "die";
    QTest::newRow("url still inherited") << "L2"
                                         << "url"
                                         << "https://example.com/gpu.pdf";
    QTest::newRow("no tool on a spec figure") << "HBM2"
                                              << "tool"
                                              << "";
}

void TestHardwareProvenance::mergesMachineDefaultsKeyByKey()
{
    QFETCH(QString, ceiling);
    QFETCH(QString, key);
    QFETCH(QString, expected);
    const auto result = readHardwareJson(dataFile("hardware_provenance.json"), "p.json");
    QVERIFY2(result.diagnostics.empty(), qPrintable(allMessages(result.diagnostics)));
    QCOMPARE(result.machines.size(), std::size_t { 1 });
    const Provenance *p = provenanceOf(result.machines.front(), ceiling.toStdString());
    QVERIFY(p);
    QCOMPARE(QString::fromStdString(keyOf(*p, key)), expected);
}

void TestHardwareProvenance::readsSparsityAndAlternates()
{
    const Hardware hw = machineOf("hardware_provenance.json");
    QCOMPARE(hw.compute.size(), std::size_t { 3 });
    QVERIFY(!hw.findCompute("FP16 tensor")->sparse); // "sparsity": "dense"
    QVERIFY(hw.findCompute("FP16 tensor 2:4 sparse")->sparse); // "sparsity": "2:4"
    QVERIFY(!hw.findCompute("FP16 tensor")->alternate);
    const auto &fp32 = *hw.findCompute("FP32 vector");
    QVERIFY(fp32.alternate);
    QCOMPARE(fp32.alternate->value, 18e12); // "18 TFLOP/s"
    QCOMPARE(fp32.alternate->provenance.basis, Basis::Measured);
    QCOMPARE(fp32.alternate->provenance.tool, std::string("likwid-bench 5.3"));
    // An alternate's provenance is its own: the machine's defaults (a spec datasheet) are not
    // laid under a measured figure.
    QCOMPARE(fp32.alternate->provenance.url, std::string());
    const auto &hbm = *hw.findMemory("HBM2");
    QVERIFY(hbm.alternate);
    QCOMPARE(hbm.alternate->value, 1.35e12); // "1.35 TB/s"
    QCOMPARE(hbm.alternate->provenance.host, std::string("node17"));
    QCOMPARE(hbm.bandwidth, 1555e9);
    // withFigures(Measured) swaps the measured figure in: 1.35 TB/s, the 1555 GB/s becomes the
    // alternate with the spec provenance.
    const Hardware measured = withFigures(hw, FigureChoice::Measured);
    QCOMPARE(measured.findMemory("HBM2")->bandwidth, 1.35e12);
    QCOMPARE(measured.findMemory("HBM2")->provenance.basis, Basis::Measured);
    QCOMPARE(measured.findMemory("HBM2")->alternate->value, 1555e9);
    QCOMPARE(withFigures(hw, FigureChoice::Spec).findMemory("HBM2")->bandwidth, 1555e9);
}

void TestHardwareProvenance::roundTripsEveryKey()
{
    const Hardware original = machineOf("hardware_provenance.json");
    const std::string written = writeHardwareJson(original);
    QVERIFY(written.find("\"version\": 2") != std::string::npos);
    QVERIFY(written.find("\"sparsity\": \"2:4\"") != std::string::npos);
    const auto again = readHardwareJson(written, "again.json");
    QVERIFY2(again.diagnostics.empty(), qPrintable(allMessages(again.diagnostics)));
    QCOMPARE(again.machines.size(), std::size_t { 1 });
    const Hardware &copy = again.machines.front();
    QCOMPARE(copy.compute.size(), original.compute.size());
    QCOMPARE(copy.memory.size(), original.memory.size());
    for (std::size_t i = 0; i < copy.compute.size(); ++i) {
        QVERIFY(copy.compute[i].provenance == original.compute[i].provenance);
        QVERIFY(copy.compute[i].alternate == original.compute[i].alternate);
        QCOMPARE(copy.compute[i].sparse, original.compute[i].sparse);
    }
    for (std::size_t i = 0; i < copy.memory.size(); ++i) {
        QVERIFY(copy.memory[i].provenance == original.memory[i].provenance);
        QVERIFY(copy.memory[i].alternate == original.memory[i].alternate);
    }
    QCOMPARE(writeHardwareJson(copy), written);
}

void TestHardwareProvenance::migratesVersion1_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("expected");
    // A version 1 file: basis unstated, the machine's "source" as every ceiling's source.
    QTest::newRow("v1 basis") << "hardware.json"
                              << "basis"
                              << "unstated";
    QTest::newRow("v1 source")
        << "hardware.json"
        << "source"
        << "tests/data/json/hardware.json: a small machine in Ridgepoint's hardware JSON "
           "(docs/FILES.md)";
    // With a "measurement" object: measured, with its tool, date and host.
    QTest::newRow("measured basis") << "hardware_v1_measured.json"
                                    << "basis"
                                    << "measured";
    QTest::newRow("measured tool") << "hardware_v1_measured.json"
                                   << "tool"
                                   << "ridgepoint measure";
    QTest::newRow("measured date") << "hardware_v1_measured.json"
                                   << "date"
                                   << "2026-11-02T10:00:00Z";
    QTest::newRow("measured host") << "hardware_v1_measured.json"
                                   << "host"
                                   << "desk1";
    QTest::newRow("measured source") << "hardware_v1_measured.json"
                                     << "source"
                                     << "measured with ridgepoint measure";
}

void TestHardwareProvenance::migratesVersion1()
{
    QFETCH(QString, file);
    QFETCH(QString, key);
    QFETCH(QString, expected);
    const auto result = readHardwareJson(dataFile(qPrintable(file)), file.toStdString());
    QVERIFY2(!hasErrors(result.diagnostics), qPrintable(allMessages(result.diagnostics)));
    QCOMPARE(result.machines.size(), std::size_t { 1 });
    const Hardware &hw = result.machines.front();
    for (const auto &c : hw.compute)
        QCOMPARE(QString::fromStdString(keyOf(c.provenance, key)), expected);
    for (const auto &m : hw.memory)
        QCOMPARE(QString::fromStdString(keyOf(m.provenance, key)), expected);
}

void TestHardwareProvenance::reportsProvenanceErrors_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("message");
    const auto computeWith = [](const QString &extra) {
        return R"("compute": [{"name": "C", "precision": "fp32", "peak": 1e12, )" + extra + "}]";
    };
    QTest::newRow("bad basis on a ceiling")
        << "{\"version\": 2, \"name\": \"X\","
            + computeWith(R"("provenance": {"basis": "guessed"})") + "," + kMemory + "}"
        << "machine (X).compute[0].provenance.basis: unknown basis \"guessed\"";
    QTest::newRow("bad basis on the machine")
        << R"({"version": 2, "name": "X", "provenance": {"basis": "rumour"},)" + kCompute + ","
            + kMemory + "}"
        << "machine (X).provenance.basis: unknown basis \"rumour\"";
    QTest::newRow("bad sparsity")
        << "{\"name\": \"X\"," + computeWith(R"("sparsity": "4:8")") + "," + kMemory + "}"
        << "machine (X).compute[0].sparsity: expected \"dense\" or \"2:4\", found \"4:8\"";
    QTest::newRow("sparsity is a number")
        << "{\"name\": \"X\"," + computeWith(R"("sparsity": 2)") + "," + kMemory + "}"
        << "machine (X).compute[0].sparsity: expected \"dense\" or \"2:4\", found number";
    QTest::newRow("sparse contradicts sparsity") << "{\"name\": \"X\","
            + computeWith(R"("sparsity": "dense", "sparse": true)") + "," + kMemory + "}"
                                                 << "machine (X).compute[0].sparse: contradicts";
    QTest::newRow("clock_mhz zero")
        << "{\"name\": \"X\"," + computeWith(R"("provenance": {"clock_mhz": 0})") + "," + kMemory
            + "}"
        << "machine (X).compute[0].provenance.clock_mhz: expected a positive number";
    QTest::newRow("clock_mhz text")
        << "{\"name\": \"X\"," + computeWith(R"("provenance": {"clock_mhz": "fast"})") + ","
            + kMemory + "}"
        << "compute[0].provenance.clock_mhz: expected a positive number";
    QTest::newRow("provenance not an object")
        << "{\"name\": \"X\"," + computeWith(R"("provenance": "datasheet")") + "," + kMemory + "}"
        << "machine (X).compute[0].provenance: expected an object, found string";
    QTest::newRow("alternate bad unit") << "{\"name\": \"X\"," + kCompute
            + R"(, "memory": [{"name": "M", "level": "DRAM", "bandwidth": 1e9,
                 "alternate": {"bandwidth": "5 TFLOP/s"}}]})"
                                        << "machine (X).memory[0].alternate.bandwidth:";
    QTest::newRow("alternate without value")
        << "{\"name\": \"X\"," + computeWith(R"("alternate": {"provenance": {}})") + "," + kMemory
            + "}"
        << "machine (X).compute[0].alternate: missing \"peak\"";
    QTest::newRow("alternate basis")
        << "{\"name\": \"X\","
            + computeWith(R"("alternate": {"peak": 1e12, "provenance": {"basis": "x"}})") + ","
            + kMemory + "}"
        << "compute[0].alternate.provenance.basis: unknown basis \"x\"";
    QTest::newRow("version 3") << "{\"version\": 3, \"name\": \"X\"," + kCompute + "," + kMemory
            + "}"
                               << "version 3 is newer than this Ridgepoint reads (up to 2)";
}

void TestHardwareProvenance::reportsProvenanceErrors()
{
    QFETCH(QString, json);
    QFETCH(QString, message);
    const auto result = readHardwareJson(json.toStdString(), "bad.json");
    QVERIFY(result.machines.empty());
    QVERIFY(hasErrors(result.diagnostics));
    QVERIFY2(allMessages(result.diagnostics).contains(message),
        qPrintable(allMessages(result.diagnostics)));
}

void TestHardwareProvenance::warnsAboutDatesClocksAndScopes_data()
{
    QTest::addColumn<QString>("provenance");
    QTest::addColumn<QString>("message");
    QTest::newRow("accessed not a date")
        << R"({"accessed": "26/11/2026"})"
        << "provenance.accessed: expected a date YYYY-MM-DD, found \"26/11/2026\"";
    QTest::newRow("month 13") << R"({"accessed": "2026-13-01"})"
                              << "expected a date YYYY-MM-DD";
    QTest::newRow("unknown clock") << R"({"clock": "turbo"})"
                                   << "unknown clock \"turbo\"";
    QTest::newRow("unknown scope") << R"({"scope": "board"})"
                                   << "unknown scope \"board\"";
    QTest::newRow("unknown key") << R"({"sauce": "x"})"
                                 << "unknown key \"sauce\"";
}

void TestHardwareProvenance::warnsAboutDatesClocksAndScopes()
{
    QFETCH(QString, provenance);
    QFETCH(QString, message);
    const QString json = "{\"version\": 2, \"name\": \"X\", \"provenance\": " + provenance + ","
        + kCompute + "," + kMemory + "}";
    const auto result = readHardwareJson(json.toStdString(), "warn.json");
    QCOMPARE(result.machines.size(), std::size_t { 1 }); // a warning, the machine still loads
    QVERIFY(!hasErrors(result.diagnostics));
    QCOMPARE(result.diagnostics.size(), std::size_t { 1 });
    QVERIFY2(allMessages(result.diagnostics).contains(message),
        qPrintable(allMessages(result.diagnostics)));
}

void TestHardwareProvenance::overridesAreGivenOnTheCommandLine()
{
    const Hardware hw = machineOf("hardware_provenance.json");
    const auto custom = withOverrides(hw, 1e14, 1e12, "FP32 vector");
    QVERIFY(custom);
    const auto &fp32 = *custom->findCompute("FP32 vector");
    QCOMPARE(fp32.provenance.basis, Basis::Unstated);
    QCOMPARE(fp32.provenance.source, std::string("given on the command line (--peak/--bandwidth)"));
    QVERIFY(!fp32.alternate); // the typed figure is the one; the measured 18 TFLOP/s is dropped
    const auto &hbm = *custom->findMemory("HBM2");
    QCOMPARE(hbm.bandwidth, 1e12);
    QCOMPARE(hbm.provenance.source, std::string("given on the command line (--peak/--bandwidth)"));
    // Ceilings not overridden keep theirs.
    QCOMPARE(custom->findMemory("L2")->provenance.basis, Basis::Derived);
    const Hardware simple = makeSimpleMachine(1e12, 1e11);
    QCOMPARE(simple.compute.front().provenance.source,
        std::string("given on the command line (--peak/--bandwidth)"));
    QCOMPARE(simple.memory.front().provenance.basis, Basis::Unstated);
}

void TestHardwareProvenance::figureChoiceNames_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("choice"); // -1: not a choice
    QTest::newRow("measured") << "measured" << static_cast<int>(FigureChoice::Measured);
    QTest::newRow("spec") << "spec" << static_cast<int>(FigureChoice::Spec);
    QTest::newRow("any case") << "SPEC" << static_cast<int>(FigureChoice::Spec);
    QTest::newRow("unknown") << "derived" << -1;
}

void TestHardwareProvenance::figureChoiceNames()
{
    QFETCH(QString, name);
    QFETCH(int, choice);
    const auto parsed = figureChoiceFromName(name.toStdString());
    QCOMPARE(parsed ? static_cast<int>(*parsed) : -1, choice);
    if (parsed)
        QCOMPARE(figureChoiceFromName(figureChoiceName(*parsed)), parsed);
}

void TestHardwareProvenance::profilersRoofsStateTheirBasis_data()
{
    QTest::addColumn<QString>("file"); // under tests/data
    QTest::addColumn<int>("basis");
    QTest::addColumn<int>("ceilings");
    // Benchmarks' figures are measured; Nsight Compute's roofs are its per-cycle peaks times
    // its clocks, derived. Until 2026-11-30 all of them were unstated.
    QTest::newRow("rocprof-compute roofline.csv")
        << "real/rocprof_compute_roofline_MI200.csv" << int(Basis::Measured) << 11;
    QTest::newRow("Advisor roofs") << "advisor/roofs.csv" << int(Basis::Measured) << 7;
    QTest::newRow("ncu roofline section")
        << "real/ncu_section_roofline_chart_cublas_gemv.csv" << int(Basis::Derived) << 3;
    QTest::newRow("ERT sum") << "adhoc/ert_sum.txt" << int(Basis::Measured) << -1;
}

void TestHardwareProvenance::profilersRoofsStateTheirBasis()
{
    QFETCH(QString, file);
    QFETCH(int, basis);
    QFETCH(int, ceilings);
    QFile in(test::sourcePath("tests/data/" + file));
    QVERIFY(in.open(QIODevice::ReadOnly));
    const HardwareFileResult read = readHardwareFile(in.readAll().toStdString(), "f");
    QVERIFY(!read.hardware.machines.empty());
    const Hardware &machine = read.hardware.machines.front();
    int seen = 0;
    const auto check = [&](const std::string &name, const Provenance &provenance) {
        ++seen;
        QVERIFY2(int(provenance.basis) == basis, name.c_str());
        QVERIFY2(!provenance.source.empty(), name.c_str());
    };
    for (const auto &ceiling : machine.compute)
        check(ceiling.name, ceiling.provenance);
    for (const auto &ceiling : machine.memory)
        check(ceiling.name, ceiling.provenance);
    if (ceilings >= 0)
        QCOMPARE(seen, ceilings);
    QVERIFY(seen > 0);
}

QTEST_GUILESS_MAIN(TestHardwareProvenance)
#include "tst_hardware_provenance.moc"
