// The walls the chart draws (docs/MODEL.md §12, §12.1), as tilingWalls gives them for a
// Document: a fused LLM step's attention wall at its shape, a trace's attention kernel's wall,
// none for unfused attention. Every expected intensity is worked out by hand in its comment.
#include "tests/support/core_test_support.h"

#include "widgets/chart/charttooltip.h"
#include "widgets/chart/tilingwalls.h"
#include "widgets/document/document.h"

#include <QTest>

#include <cmath>

using namespace ridgepoint;
using test::preset;

namespace {

bool near(double actual, double expected, double relative)
{
    return std::fabs(actual - expected) <= relative * std::fabs(expected);
}

Workload llmAttention(bool fused)
{
    LlmSpec spec = test::llmStep(LlmPhase::Prefill, 8192, 1);
    spec.fusedAttention = fused;
    Workload w;
    w.model = LlmWorkload { test::builtinModel("llama-3-8b"), spec, "attention score" };
    return w;
}

} // namespace

class TestTilingWalls : public QObject
{
    Q_OBJECT

private slots:
    void fusedLlmStepHasItsAttentionWall();
    void unfusedLlmStepHasNone();
    void traceAttentionKernelHasItsWall();
    void dragPastTheAttentionBoundIsSaid_data();
    void dragPastTheAttentionBoundIsSaid();
};

void TestTilingWalls::fusedLlmStepHasItsAttentionWall()
{
    Document document;
    document.resetHardware(preset("H100"));
    QVERIFY(document.addWorkloads({ llmAttention(true) }, "attention"));
    const auto walls = chart::tilingWalls(document);
    // The L2 (against HBM) alone: the shared memory bounds L2's traffic, not the chart's.
    QCOMPARE(walls.size(), std::size_t(1));
    QCOMPARE(walls[0].label, QString("L2 50 MiB attention wall (n 8192, d 128)"));
    // 32 layers of score and value: P = 32·8192·8193/2 = 1,073,872,896 pairs a layer, FLOPs
    // P·(4·128 + 5) (the softmax's 5 in the score), over the compulsory 167,772,160 B a layer:
    // 555,192,287,232 / 167,772,160 = 3,309.20 FLOP/B.
    QVERIFY2(near(walls[0].intensity, 3309.20390625, 1e-12),
        qPrintable(QString::number(walls[0].intensity, 'g', 12)));
}

void TestTilingWalls::unfusedLlmStepHasNone()
{
    Document document;
    document.resetHardware(preset("H100"));
    QVERIFY(document.addWorkloads({ llmAttention(false) }, "attention"));
    QVERIFY(chart::tilingWalls(document).empty());
}

void TestTilingWalls::traceAttentionKernelHasItsWall()
{
    Document document;
    document.resetHardware(preset("H100"));
    KernelPoint p;
    p.name = "flash_fwd_kernel";
    p.group = "aten::_scaled_dot_product_flash_attention(c10::BFloat16[1, 32, 8192, 128], "
              "c10::BFloat16[1, 8, 8192, 128], c10::BFloat16[1, 8, 8192, 128])";
    p.flops = 1e12;
    p.bytes.push_back({ std::nullopt, 2e8 });
    p.seconds = 1e-3;
    p.precision = Precision::BF16;
    document.resetPoints({ p });
    const auto walls = chart::tilingWalls(document);
    QCOMPARE(walls.size(), std::size_t(1));
    // Unmasked FLOPs 2·32·8192²·256 = 2^40 over the compulsory 167,772,160 B: 6,553.6 FLOP/B.
    QVERIFY(near(walls[0].intensity, 6553.6, 1e-12));
}

void TestTilingWalls::dragPastTheAttentionBoundIsSaid_data()
{
    QTest::addColumn<double>("bytesFactor");
    QTest::addColumn<bool>("past");
    QTest::newRow("as planned") << 1.0 << false;
    QTest::newRow("a third of the bytes") << 0.314 << true;
    QTest::newRow("a tenth of the bytes") << 0.1 << true;
}

// The tooltip the window shows while a fused attention step is dragged names its bound, as a
// matmul's names its tiling wall.
void TestTilingWalls::dragPastTheAttentionBoundIsSaid()
{
    QFETCH(double, bytesFactor);
    QFETCH(bool, past);
    Document document;
    document.resetHardware(preset("H100"));
    QVERIFY(document.addWorkloads({ llmAttention(true) }, "attention"));
    document.setWhatIf(0, WhatIf { bytesFactor, 1.0 });
    const QString text = chart::ChartTooltip::describe(document, 0);
    QCOMPARE(text.contains("attention I/O bound"), past);
    QCOMPARE(document.workspace().ioBoundExcess(0).has_value(), past);
    QVERIFY(!text.contains("tiling wall"));
}

QTEST_MAIN(TestTilingWalls)
#include "tst_tilingwalls.moc"
