// The built-in preset database: every file loads, cites a source, and is found by name.
#include "core/presets/presets.h"

#include <QTest>

#include <cmath>

using namespace ridgepoint;

class TestPresets : public QObject
{
    Q_OBJECT

private slots:
    void loadsEveryBuiltInFileCleanly();
    void containsTheMachinesUsersAskFor_data();
    void containsTheMachinesUsersAskFor();
    void findsByNameAliasAndPrefix_data();
    void findsByNameAliasAndPrefix();
    void explainsAmbiguousAndUnknownNames();
    void keepsSparsePeaksApart();
    void tpusCarryInt8AndIci();
    void userMachinesReplacePresets();
    void everyBuiltInPresetCeilingHasABasisAndASource_data();
    void everyBuiltInPresetCeilingHasABasisAndASource();
    void everyDerivedCeilingHasAFormulaAndEveryMeasuredOneAToolAndDate_data();
    void everyDerivedCeilingHasAFormulaAndEveryMeasuredOneAToolAndDate();
    void provenanceGapsNameTheCeiling_data();
    void provenanceGapsNameTheCeiling();
};

namespace {

// One row per built-in machine.
void presetRows()
{
    QTest::addColumn<QString>("machine");
    const PresetDatabase db = PresetDatabase::builtin();
    for (const auto &machine : db.machines())
        QTest::newRow(machine.name.c_str()) << QString::fromStdString(machine.name);
}

const Hardware &presetNamed(const PresetDatabase &db, const QString &name)
{
    static const Hardware none;
    auto found = db.find(name.toStdString());
    return found ? **found : none;
}

} // namespace

void TestPresets::loadsEveryBuiltInFileCleanly()
{
    const PresetDatabase db = PresetDatabase::builtin();
    for (const auto &d : db.diagnostics())
        qWarning("%s", d.toString().c_str());
    QVERIFY(db.diagnostics().empty());
    QVERIFY(db.machines().size() >= 13);
    for (const auto &machine : db.machines()) {
        QVERIFY2(!machine.source.empty(), machine.name.c_str());
        QVERIFY2(validateHardware(machine).empty(), machine.name.c_str());
        QVERIFY2(machine.compute.size() >= 2, machine.name.c_str());
        QVERIFY2(machine.mainMemory(), machine.name.c_str());
    }
}

void TestPresets::containsTheMachinesUsersAskFor_data()
{
    QTest::addColumn<QString>("query");
    QTest::addColumn<QString>("name");
    QTest::newRow("T4") << "T4"
                        << "NVIDIA T4";
    QTest::newRow("V100") << "V100"
                          << "NVIDIA V100";
    QTest::newRow("A100 40GB") << "A100 40GB"
                               << "NVIDIA A100 40GB";
    QTest::newRow("A100 80GB") << "a100-80gb"
                               << "NVIDIA A100 80GB";
    QTest::newRow("H100") << "h100"
                          << "NVIDIA H100 SXM5 80GB";
    QTest::newRow("L4") << "l4"
                        << "NVIDIA L4";
    QTest::newRow("H200") << "H200"
                          << "NVIDIA H200 SXM 141GB";
    QTest::newRow("B200") << "b200"
                          << "NVIDIA B200";
    QTest::newRow("MI300X") << "mi300x"
                            << "AMD Instinct MI300X";
    QTest::newRow("TPU v5e") << "tpu v5e"
                             << "Google TPU v5e";
    QTest::newRow("TPU v6e") << "v6e"
                             << "Google TPU v6e";
    QTest::newRow("Q8_0 note's DDR5 desktop") << "DDR5 desktop"
                                              << "DDR5-5500 desktop CPU";
    QTest::newRow("server CPU") << "epyc 9654"
                                << "AMD EPYC 9654";
}

void TestPresets::containsTheMachinesUsersAskFor()
{
    QFETCH(QString, query);
    QFETCH(QString, name);
    const PresetDatabase db = PresetDatabase::builtin();
    const auto found = db.find(query.toStdString());
    QVERIFY2(found, found ? "" : found.error().c_str());
    QCOMPARE(QString::fromStdString((*found)->name), name);
}

void TestPresets::findsByNameAliasAndPrefix_data()
{
    QTest::addColumn<QString>("query");
    QTest::addColumn<QString>("name");
    QTest::newRow("full name, other case") << "nvidia h100 sxm5 80gb"
                                           << "NVIDIA H100 SXM5 80GB";
    QTest::newRow("unique prefix of a name") << "NVIDIA H2"
                                             << "NVIDIA H200 SXM 141GB";
    QTest::newRow("unique prefix of an alias") << "mi3"
                                               << "AMD Instinct MI300X";
    QTest::newRow("spaces and dashes ignored") << "tpu-v5e"
                                               << "Google TPU v5e";
    QTest::newRow("exact alias beats prefix") << "H100"
                                              << "NVIDIA H100 SXM5 80GB";
}

void TestPresets::findsByNameAliasAndPrefix()
{
    QFETCH(QString, query);
    QFETCH(QString, name);
    const PresetDatabase db = PresetDatabase::builtin();
    const auto found = db.find(query.toStdString());
    QVERIFY2(found, found ? "" : found.error().c_str());
    QCOMPARE(QString::fromStdString((*found)->name), name);
}

void TestPresets::explainsAmbiguousAndUnknownNames()
{
    const PresetDatabase db = PresetDatabase::builtin();
    const auto ambiguous = db.find("a100");
    QVERIFY(!ambiguous);
    const QString message = QString::fromStdString(ambiguous.error());
    QVERIFY2(message.contains("ambiguous"), qPrintable(message));
    QVERIFY(message.contains("NVIDIA A100 40GB"));
    QVERIFY(message.contains("NVIDIA A100 80GB"));

    const auto unknown = db.find("Cray-1");
    QVERIFY(!unknown);
    QVERIFY(
        QString::fromStdString(unknown.error()).contains("no hardware preset matches \"Cray-1\""));
    QVERIFY(QString::fromStdString(unknown.error()).contains("H100"));
    QVERIFY(!db.find(""));
}

void TestPresets::keepsSparsePeaksApart()
{
    const PresetDatabase db = PresetDatabase::builtin();
    for (const auto &machine : db.machines()) {
        QVERIFY2(!machine.defaultComputeCeiling()->sparse, machine.name.c_str());
        for (const auto &c : machine.compute) {
            // A 2:4-sparsity figure is labelled as such and sits beside a dense one of half.
            const bool saysSparse = c.name.find("sparse") != std::string::npos;
            QCOMPARE(c.sparse, saysSparse);
            if (c.sparse) {
                bool hasDense = false;
                for (const auto &d : machine.compute)
                    hasDense = hasDense
                        || (!d.sparse && d.precision == c.precision
                            && std::fabs(d.peak * 2 - c.peak) <= 0.002 * c.peak);
                QVERIFY2(hasDense, c.name.c_str());
            }
        }
    }
}

void TestPresets::tpusCarryInt8AndIci()
{
    const PresetDatabase db = PresetDatabase::builtin();
    const Hardware &v5e = **db.find("TPU v5e");
    QCOMPARE(v5e.computeFor(Precision::INT8)->peak, 3.94e14);
    QCOMPARE(v5e.computeFor(Precision::BF16)->peak, 1.97e14);
    QCOMPARE(v5e.mainMemory()->bandwidth, 8.2e11);
    QCOMPARE(v5e.memoryFor(MemoryLevel::ICI)->bandwidth, 4.5e10);
    const Hardware &v6e = **db.find("TPU v6e");
    QCOMPARE(v6e.computeFor(Precision::BF16)->peak, 9.1e14);
    QCOMPARE(v6e.mainMemory()->bandwidth, 1.6e12);
    QVERIFY(v6e.computeFor(Precision::INT8));
    QVERIFY(v6e.memoryFor(MemoryLevel::ICI));
}

void TestPresets::userMachinesReplacePresets()
{
    PresetDatabase db = PresetDatabase::builtin();
    const std::size_t before = db.machines().size();
    Hardware mine = **db.find("H100");
    mine.memory.front().bandwidth = 3.0e12;
    db.add(mine);
    QCOMPARE(db.machines().size(), before);
    QCOMPARE((*db.find("H100"))->mainMemory()->bandwidth, 3.0e12);
    Hardware other = makeSimpleMachine(1e12, 1e11);
    other.name = "My laptop";
    db.add(other);
    QCOMPARE(db.machines().size(), before + 1);
    QCOMPARE((*db.find("my laptop"))->name, std::string("My laptop"));
}

// Issue 13: every figure a preset ships says what it rests on (spec, derived, measured) and where
// it comes from. Needs the presets rewritten to hardware JSON version 2.
void TestPresets::everyBuiltInPresetCeilingHasABasisAndASource_data()
{
    presetRows();
}

void TestPresets::everyBuiltInPresetCeilingHasABasisAndASource()
{
    QFETCH(QString, machine);
    const PresetDatabase db = PresetDatabase::builtin();
    const Hardware &hw = presetNamed(db, machine);
    QVERIFY(!hw.compute.empty());
    const auto gaps = provenanceGaps(hw);
    std::string all;
    for (const auto &gap : gaps)
        all += "\n  " + gap;
    QVERIFY2(gaps.empty(), all.c_str());
}

void TestPresets::everyDerivedCeilingHasAFormulaAndEveryMeasuredOneAToolAndDate_data()
{
    presetRows();
}

void TestPresets::everyDerivedCeilingHasAFormulaAndEveryMeasuredOneAToolAndDate()
{
    QFETCH(QString, machine);
    const PresetDatabase db = PresetDatabase::builtin();
    const Hardware &hw = presetNamed(db, machine);
    QVERIFY(!hw.compute.empty());
    const auto gaps = provenanceDetailGaps(hw);
    std::string all;
    for (const auto &gap : gaps)
        all += "\n  " + gap;
    QVERIFY2(gaps.empty(), all.c_str());
}

void TestPresets::provenanceGapsNameTheCeiling_data()
{
    QTest::addColumn<int>("basis");
    QTest::addColumn<QString>("source");
    QTest::addColumn<QString>("formula");
    QTest::addColumn<QString>("tool");
    QTest::addColumn<QString>("date");
    QTest::addColumn<QStringList>("gaps"); // provenanceGaps, then provenanceDetailGaps
    const auto b = [](Basis basis) { return static_cast<int>(basis); };
    QTest::newRow("complete spec") << b(Basis::Spec) << "datasheet"
                                   << ""
                                   << ""
                                   << "" << QStringList {};
    QTest::newRow("unstated") << b(Basis::Unstated) << "datasheet"
                              << ""
                              << ""
                              << "" << QStringList { "memory ceiling \"Memory\": no basis" };
    QTest::newRow("no source") << b(Basis::Spec) << ""
                               << ""
                               << ""
                               << "" << QStringList { "memory ceiling \"Memory\": no source" };
    QTest::newRow("derived without formula")
        << b(Basis::Derived) << "whitepaper"
        << ""
        << ""
        << "" << QStringList { "memory ceiling \"Memory\": derived without a formula" };
    QTest::newRow("derived with formula") << b(Basis::Derived) << "whitepaper"
                                          << "8 x 64 B x 1 GHz"
                                          << ""
                                          << "" << QStringList {};
    QTest::newRow("measured without tool or date")
        << b(Basis::Measured) << "a run"
        << ""
        << ""
        << ""
        << QStringList { "memory ceiling \"Memory\": measured without a tool",
               "memory ceiling \"Memory\": measured without a date" };
    QTest::newRow("measured complete") << b(Basis::Measured) << "a run"
                                       << ""
                                       << "stream"
                                       << "2026-11-26" << QStringList {};
}

void TestPresets::provenanceGapsNameTheCeiling()
{
    QFETCH(int, basis);
    QFETCH(QString, source);
    QFETCH(QString, formula);
    QFETCH(QString, tool);
    QFETCH(QString, date);
    QFETCH(QStringList, gaps);
    Hardware hw = makeSimpleMachine(1e12, 1e11);
    // The compute ceiling is complete, so every gap is the memory ceiling's.
    hw.compute.front().provenance.basis = Basis::Spec;
    Provenance &p = hw.memory.front().provenance;
    p.basis = static_cast<Basis>(basis);
    p.source = source.toStdString();
    p.formula = formula.toStdString();
    p.tool = tool.toStdString();
    p.date = date.toStdString();
    QStringList found;
    for (const auto &gap : provenanceGaps(hw))
        found << QString::fromStdString(gap);
    for (const auto &gap : provenanceDetailGaps(hw))
        found << QString::fromStdString(gap);
    QCOMPARE(found.size(), gaps.size());
    for (qsizetype i = 0; i < gaps.size(); ++i)
        QVERIFY2(found[i].startsWith(gaps[i]), qPrintable(found.join('\n')));
}

QTEST_GUILESS_MAIN(TestPresets)
#include "tst_presets.moc"
