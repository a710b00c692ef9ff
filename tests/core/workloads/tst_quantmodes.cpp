// The one table of quantization modes (core/workloads/quant_modes.h): the words every place
// uses, the names and aliases accepted, the types matmuls and LLM steps get from it, and the
// group a workload point shows under a mode (issue 27, item 13).
#include "core/workloads/planned_workload.h"
#include "core/workloads/quant_modes.h"

#include <QTest>

#include <algorithm>

using namespace ridgepoint;

class TestQuantModes : public QObject
{
    Q_OBJECT

private slots:
    void everyModeHasOneNameAndLabel_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("label");
        QTest::addColumn<int>("weights"); // -1: the workload's own
        QTest::addColumn<int>("activations");
        QTest::newRow("none") << int(QuantMode::None) << "none"
                              << "none — weights and activations as each workload sets them" << -1
                              << -1;
        QTest::newRow("int8") << int(QuantMode::Int8) << "int8"
                              << "int8 — int8 weights and activations, int8 ceiling"
                              << int(Precision::INT8) << int(Precision::INT8);
        QTest::newRow("w8a16") << int(QuantMode::W8A16) << "w8a16"
                               << "w8a16 — int8 weights, bf16 activations" << int(Precision::INT8)
                               << -1;
        QTest::newRow("w4a16") << int(QuantMode::W4A16) << "w4a16"
                               << "w4a16 — int4 weights, bf16 activations" << int(Precision::INT4)
                               << -1;
    }

    void everyModeHasOneNameAndLabel()
    {
        QFETCH(int, mode);
        QFETCH(QString, name);
        QFETCH(QString, label);
        QFETCH(int, weights);
        QFETCH(int, activations);
        const auto m = static_cast<QuantMode>(mode);
        QCOMPARE(QString::fromStdString(std::string(quantModeName(m))), name);
        QCOMPARE(QString::fromStdString(quantModeLabel(m)), label);
        QCOMPARE(quantModeFromName(name.toStdString()), std::optional(m));
        QCOMPARE(quantModeFromName(name.toUpper().toStdString()), std::optional(m));
        // The types the label names are the ones a bf16 LLM step and matmul get.
        LlmSpec own;
        own.weights = Precision::BF16;
        own.activations = Precision::BF16;
        const LlmSpec llm = llmSpecForMode(own, m);
        const MatmulDtypes matmul = matmulDtypes(Precision::BF16, m);
        const auto expected
            = [](int p) { return p < 0 ? Precision::BF16 : static_cast<Precision>(p); };
        QCOMPARE(llm.weights, expected(weights));
        QCOMPARE(llm.activations, expected(activations));
        QCOMPARE(matmul.y, expected(weights));
        QCOMPARE(matmul.x, expected(activations));
        QCOMPARE(matmul.z, expected(activations));
        if (weights >= 0)
            QVERIFY(label.contains(
                QString::fromStdString(std::string(precisionName(llm.weights))) + " weights"));
        // The group a workload point shows: the mode named after it, except under none.
        QCOMPARE(QString::fromStdString(quantizedGroup("matmul 1×8192×8192 bf16", m)),
            m == QuantMode::None ? QString("matmul 1×8192×8192 bf16")
                                 : "matmul 1×8192×8192 bf16 · " + name);
    }

    void acceptsTheLlmCommandsWordAndRefusesOthers()
    {
        QCOMPARE(quantModeFromName("w8a8"), std::optional(QuantMode::Int8));
        QCOMPARE(quantModeFromName("W8A8"), std::optional(QuantMode::Int8));
        for (const char *word : { "", "int4", "w8a", "fp8", "none " })
            QVERIFY2(!quantModeFromName(word), word);
        QCOMPARE(QString::fromStdString(quantModeChoices()),
            QString("none, int8 (or w8a8), w8a16 or w4a16"));
    }

    void llmCommandsModesUseTheSameTypesAndWords()
    {
        // llm --precision names the same types: int8 is its w8a8, w8a16 and w4a16 are its own,
        // and an LLM step under the window's mode counts the same bytes a weight (w4a16: the
        // int4 weight and an fp16 scale per group of 128, 0.5 + 2/128 = 0.515625 B).
        LlmSpec own;
        own.weights = Precision::BF16;
        own.activations = Precision::BF16;
        for (const QuantModeInfo &info : quantModes()) {
            if (info.mode == QuantMode::None)
                continue;
            const std::string_view word = info.alias.empty() ? info.name : info.alias;
            const auto llm = std::find_if(llmPrecisionModes().begin(), llmPrecisionModes().end(),
                [&](const LlmPrecisionMode &m) { return m.name == word; });
            QVERIFY2(llm != llmPrecisionModes().end(), std::string(word).c_str());
            QCOMPARE(llm->weights, *info.weights);
            QCOMPARE(llm->activations, info.activations.value_or(Precision::BF16));
            if (info.mode != QuantMode::W4A16)
                QCOMPARE(llm->description, std::string(info.meaning));
            const auto command = withLlmPrecisionMode(own, llm->name);
            QVERIFY(command);
            QCOMPARE(llmWeightBytes(llmSpecForMode(own, info.mode)), llmWeightBytes(*command));
        }
        QCOMPARE(llmWeightBytes(llmSpecForMode(own, QuantMode::W4A16)), 0.515625);
        // A spec read with scales (nvfp4) loses them under an 8-bit mode.
        const auto nvfp4 = withLlmPrecisionMode(own, "nvfp4");
        QVERIFY(nvfp4);
        QCOMPARE(llmWeightBytes(llmSpecForMode(*nvfp4, QuantMode::W8A16)), 1.0);
    }

    void weightOnlyModesKeepFloatActivations()
    {
        // An fp16 step keeps fp16 activations under w8a16; int8 activations become bf16.
        LlmSpec fp16;
        fp16.weights = Precision::FP16;
        fp16.activations = Precision::FP16;
        QCOMPARE(llmSpecForMode(fp16, QuantMode::W8A16).activations, Precision::FP16);
        LlmSpec int8 = fp16;
        int8.activations = Precision::INT8;
        QCOMPARE(llmSpecForMode(int8, QuantMode::W4A16).activations, Precision::BF16);
        QCOMPARE(llmSpecForMode(int8, QuantMode::None).activations, Precision::INT8);
        QCOMPARE(matmulDtypes(Precision::FP32, QuantMode::W8A16).compute, Precision::FP32);
        QCOMPARE(matmulDtypes(Precision::FP32, QuantMode::Int8).compute, Precision::INT8);
    }
};

QTEST_APPLESS_MAIN(TestQuantModes)
#include "tst_quantmodes.moc"
