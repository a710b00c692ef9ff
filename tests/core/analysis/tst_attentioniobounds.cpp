// The I/O lower bound of an attention forward (docs/MODEL.md §12.1): the least bytes
// max(compulsory, w·(P·d² − p·M²)/(M + 2d²)), the intensity it allows, the capacity a traffic
// needs, and an attention past its bound flagged with the doctor's reason. Every expected value
// is worked out by hand in the row's comment; tests/core/analysis/attention_io_check.py
// computes the same numbers in exact fractions, apart from this code.
#include "core/analysis/io_bounds_attention.h"
#include "core/io/formats/kineto_attention.h"
#include "core/report/workload_report.h"
#include "core/workloads/llm_attention_io.h"
#include "core/workloads/planned_workload.h"

#include "tests/support/core_test_support.h"

#include <QTest>

#include <cmath>

Q_DECLARE_METATYPE(ridgepoint::AttentionShape)

using namespace ridgepoint;
using test::preset;

namespace {

bool near(double actual, double expected, double relative)
{
    return std::fabs(actual - expected) <= relative * std::fabs(expected);
}

// A Llama-3-8B layer's prefill of 8192 tokens at batch 1: 32 query heads, 8 KV heads, d = 128.
AttentionShape h100Prefill(bool causal)
{
    AttentionShape s;
    s.heads = 32.0;
    s.kvHeads = 8.0;
    s.n = 8192.0;
    s.nKv = 8192.0;
    s.pairs = attentionPairs(s.n, s.nKv, causal);
    return s;
}

// Round numbers: one head, n = nKv = 1000, d = dv = 10, 1-byte words.
AttentionShape roundShape(bool causal)
{
    AttentionShape s;
    s.n = 1000.0;
    s.nKv = 1000.0;
    s.pairs = attentionPairs(s.n, s.nKv, causal);
    s.d = 10.0;
    s.dv = 10.0;
    s.qWordBytes = 1.0;
    s.kvWordBytes = 1.0;
    return s;
}

} // namespace

class TestAttentionIoBounds : public QObject
{
    Q_OBJECT

private slots:
    void pairs_data();
    void pairs();
    void minTraffic_data();
    void minTraffic();
    void limitIntensity_data();
    void limitIntensity();
    void capacityNeededInvertsMinTraffic_data();
    void capacityNeededInvertsMinTraffic();
    void h100Bounds();
    void pastTheBound_data();
    void pastTheBound();
    void llmPrefillCarriesTheBound();
    void llmDragPastTheBoundIsFlagged_data();
    void llmDragPastTheBoundIsFlagged();
    void unfusedAttentionHasNoBound();
    void traceShape_data();
    void traceShape();
};

void TestAttentionIoBounds::pairs_data()
{
    QTest::addColumn<double>("n");
    QTest::addColumn<double>("nKv");
    QTest::addColumn<bool>("causal");
    QTest::addColumn<double>("expected");
    QTest::newRow("full") << 8192.0 << 8192.0 << false << 67108864.0;
    // 8192·8193/2 = 33,558,528.
    QTest::newRow("causal, square") << 8192.0 << 8192.0 << true << 33558528.0;
    // Query i sees keys 0..i: 1 + 2 + 3 + 3 = 9 for 4 queries over 3 keys.
    QTest::newRow("causal, more queries than keys") << 4.0 << 3.0 << true << 9.0;
    // 2 queries over 5 keys: 1 + 2 (PyTorch's mask is aligned at the top left).
    QTest::newRow("causal, fewer queries than keys") << 2.0 << 5.0 << true << 3.0;
}

void TestAttentionIoBounds::pairs()
{
    QFETCH(double, n);
    QFETCH(double, nKv);
    QFETCH(bool, causal);
    QFETCH(double, expected);
    QCOMPARE(attentionPairs(n, nKv, causal), expected);
}

void TestAttentionIoBounds::minTraffic_data()
{
    QTest::addColumn<AttentionShape>("shape");
    QTest::addColumn<double>("capacity");
    QTest::addColumn<double>("units");
    QTest::addColumn<double>("expected");
    // H100 shared memory, 228 KiB per SM: M = 233,472 / 2 = 116,736 words, p = 132 SMs.
    // P = 32·8192² = 2^31, P·d² = 2^45 = 35,184,372,088,832; p·M² = 132·13,627,293,696 =
    // 1,798,802,767,872; / (M + 2d²) = / 149,504: 223,308,870.1 words = 446,617,740.3 B, above
    // the compulsory 32·8192·256·2 + 8·8192·256·2 = 167,772,160 B.
    QTest::newRow("H100 shared memory, full")
        << h100Prefill(false) << 233472.0 << 132.0 << 446617740.3;
    // Causal: P = 32·33,558,528 = 1,073,872,896; P·d² = 17,594,333,528,064; − p·M² =
    // 15,795,530,760,192; / 149,504 = 105,652,897.3 words = 211,305,794.6 B.
    QTest::newRow("H100 shared memory, causal")
        << h100Prefill(true) << 233472.0 << 132.0 << 211305794.6;
    // H100 L2, 50 MiB per chip: M = 26,214,400 words, M² = 6.87e14 > P·d² = 3.5e13: the
    // pebble term says nothing and the compulsory 167,772,160 B is the bound.
    QTest::newRow("H100 L2") << h100Prefill(false) << 52428800.0 << 1.0 << 167772160.0;
    // Per-SM memory with no SM count: the compulsory term alone.
    QTest::newRow("units not known") << h100Prefill(false) << 233472.0 << 0.0 << 167772160.0;
    // Round: M = 100 = d², P = 10^6: (10^8 − 10^4)/(100 + 200) = 333,300 words of 1 B, above
    // the compulsory 1000·20 + 1000·20 = 40,000 B.
    QTest::newRow("round numbers") << roundShape(false) << 100.0 << 1.0 << 333300.0;
    // Causal: P = 500,500: (50,050,000 − 10,000)/300 = 166,800.
    QTest::newRow("round numbers, causal") << roundShape(true) << 100.0 << 1.0 << 166800.0;
    // Two such memories at once: (10^8 − 2·10^4)/300 = 333,266.67.
    QTest::newRow("round numbers, two units") << roundShape(false) << 100.0 << 2.0 << 333266.6667;
}

void TestAttentionIoBounds::minTraffic()
{
    QFETCH(AttentionShape, shape);
    QFETCH(double, capacity);
    QFETCH(double, units);
    QFETCH(double, expected);
    const double got = attentionMinTraffic(shape, capacity, units);
    QVERIFY2(near(got, expected, 1e-9), qPrintable(QString::number(got, 'g', 17)));
}

void TestAttentionIoBounds::limitIntensity_data()
{
    QTest::addColumn<double>("capacity");
    QTest::addColumn<double>("word");
    QTest::addColumn<double>("d");
    QTest::addColumn<double>("expected");
    // 2(d + dv)(M + 2d²)/(w·d²): 512·149,504 / (2·16,384) = 2,336 FLOP/B.
    QTest::newRow("H100 shared memory, bf16, d 128") << 233472.0 << 2.0 << 128.0 << 2336.0;
    // 512·(26,214,400 + 32,768) / 32,768 = 410,112 FLOP/B: off any chart.
    QTest::newRow("H100 L2, bf16, d 128") << 52428800.0 << 2.0 << 128.0 << 410112.0;
    // 40·300 / 100 = 120 FLOP/B.
    QTest::newRow("round numbers") << 100.0 << 1.0 << 10.0 << 120.0;
}

void TestAttentionIoBounds::limitIntensity()
{
    QFETCH(double, capacity);
    QFETCH(double, word);
    QFETCH(double, d);
    QFETCH(double, expected);
    const double got = attentionLimitIntensity(capacity, word, d, d);
    QVERIFY2(near(got, expected, 1e-12), qPrintable(QString::number(got, 'g', 17)));
}

void TestAttentionIoBounds::capacityNeededInvertsMinTraffic_data()
{
    QTest::addColumn<AttentionShape>("shape");
    QTest::addColumn<double>("traffic");
    QTest::addColumn<double>("units");
    QTest::addColumn<double>("expected");
    // 333,300 B is the round shape's bound with M = 100 (minTraffic above).
    QTest::newRow("round numbers") << roundShape(false) << 333300.0 << 1.0 << 100.0;
    // 200 MB on the H100 shape: t = 10^8 words, p·M² + t·M − d²(P − 2t) = 0 gives
    // M = 241,860.4 words = 483,720.8 B per SM, twice the 228 KiB.
    QTest::newRow("H100, 200 MB") << h100Prefill(false) << 2e8 << 132.0 << 483720.8034;
    // At least the pebble term with no memory at all: P/2 words = 2^30 words = 2 GiB.
    QTest::newRow("no memory needed") << h100Prefill(false) << 4294967296.0 << 132.0 << 0.0;
}

void TestAttentionIoBounds::capacityNeededInvertsMinTraffic()
{
    QFETCH(AttentionShape, shape);
    QFETCH(double, traffic);
    QFETCH(double, units);
    QFETCH(double, expected);
    const double got = attentionCapacityNeeded(shape, traffic, units);
    QVERIFY2(expected == 0.0 ? got == 0.0 : near(got, expected, 1e-9),
        qPrintable(QString::number(got, 'g', 17)));
    if (got > 0.0)
        QVERIFY(near(attentionMinTraffic(shape, got, units), traffic, 1e-9));
    // Below the compulsory bytes no memory suffices.
    QVERIFY(std::isinf(attentionCapacityNeeded(shape, 0.5 * attentionCompulsoryBytes(shape), 1)));
}

void TestAttentionIoBounds::h100Bounds()
{
    const auto bounds = attentionIoBounds(preset("H100"), h100Prefill(false));
    QCOMPARE(bounds.size(), std::size_t(2));
    QCOMPARE(bounds[0].bound.capacity.level, MemoryLevel::L1);
    QCOMPARE(bounds[0].bound.against, MemoryLevel::L2);
    QCOMPARE(bounds[0].units, 132.0); // the preset's SM count
    QVERIFY(near(bounds[0].minTrafficBytes, 446617740.3, 1e-9));
    // 4·2^31·128 = 1,099,511,627,776 FLOP / 446,617,740.3 B = 2,461.86 FLOP/B at this shape.
    QVERIFY(near(bounds[0].bound.maxIntensity, 2461.862861, 1e-9));
    QCOMPARE(bounds[0].limitIntensity, 2336.0);
    QCOMPARE(bounds[1].bound.capacity.level, MemoryLevel::L2);
    QCOMPARE(bounds[1].bound.against, MemoryLevel::HBM);
    QCOMPARE(bounds[1].units, 1.0);
    // Compulsory: 1,099,511,627,776 / 167,772,160 = 6,553.6 FLOP/B.
    QVERIFY(near(bounds[1].bound.maxIntensity, 6553.6, 1e-12));
}

void TestAttentionIoBounds::pastTheBound_data()
{
    QTest::addColumn<int>("level");
    QTest::addColumn<double>("traffic");
    QTest::addColumn<QString>("cause");
    QTest::addColumn<QString>("evidence");
    // 300 MB through L2 is under the shared memory's 446.6 MB: it would need 435.1 KB per SM.
    QTest::newRow("L2 traffic under the shared-memory bound")
        << int(MemoryLevel::L2) << 3e8 << "beyond the L1 attention I/O bound"
        << "needs more than 228 KiB per sm of on-chip memory (L1) at this shape";
    QTest::newRow("L2 traffic at the bound") << int(MemoryLevel::L2) << 446617740.3 << ""
                                             << "";
    // 100 MB from HBM is under the compulsory 167.8 MB.
    QTest::newRow("HBM under the compulsory bytes")
        << int(MemoryLevel::HBM) << 1e8 << "beyond the L2 attention I/O bound"
        << "less than reading Q, K and V and writing O once (167.8 MB)";
    QTest::newRow("HBM at the compulsory bytes") << int(MemoryLevel::HBM) << 167772160.0 << ""
                                                 << "";
}

void TestAttentionIoBounds::pastTheBound()
{
    QFETCH(int, level);
    QFETCH(double, traffic);
    QFETCH(QString, cause);
    QFETCH(QString, evidence);
    const AttentionShape shape = h100Prefill(false);
    const auto bounds = attentionIoBounds(preset("H100"), shape);
    const auto excess
        = beyondAttentionIoBound(shape, bounds, static_cast<MemoryLevel>(level), traffic);
    QCOMPARE(excess.has_value(), !cause.isEmpty());
    if (!excess)
        return;
    QCOMPARE(excess->kind, IoBoundKind::Attention);
    // The doctor's sentence comes through the matmul's entry point too.
    const Diagnosis d = ioBoundDiagnosis(*excess);
    QCOMPARE(QString::fromStdString(d.cause), cause);
    QVERIFY2(QString::fromStdString(d.evidence).contains(evidence), d.evidence.c_str());
}

namespace {

LlmSpec fusedPrefill(std::int64_t seq)
{
    LlmSpec spec = test::llmStep(LlmPhase::Prefill, seq, 1);
    spec.fusedAttention = true;
    return spec;
}

} // namespace

void TestAttentionIoBounds::llmPrefillCarriesTheBound()
{
    // Llama-3-8B's prefill of 8192 tokens, fused, on the H100: per layer the causal shape above
    // (32 heads, 8 KV heads, 33,558,528 pairs), 32 layers.
    const ModelConfig model = test::builtinModel("llama-3-8b");
    const LlmSpec spec = fusedPrefill(8192);
    auto r = modelLlm(model, spec, preset("H100"));
    QVERIFY2(r, r ? "" : r.error().c_str());
    const auto io = llmAttentionIo(model, spec, preset("H100"), *r);
    QVERIFY(io);
    QCOMPARE(io->shape.heads, 32.0);
    QCOMPARE(io->shape.kvHeads, 8.0);
    QCOMPARE(io->shape.pairs, 33558528.0);
    QCOMPARE(io->layers, 32.0);
    QVERIFY(near(io->bounds[0].minTrafficBytes, 211305794.6, 1e-9));
    // The model's bytes are the compulsory ones: Q + K and V + O, 167,772,160 B a layer.
    QVERIFY(near(io->scoreBytes + io->valueBytes, 32.0 * 167772160.0, 1e-12));
    QVERIFY(near(io->bounds[1].minTrafficBytes, 167772160.0, 1e-12));
    // llm --json: both operators carry the bounds; 32 layers of the shared memory's 211,305,794.63
    // B = 6,761,785,428.16 B.
    const QString json = QString::fromStdString(llmJson(preset("H100"), model, spec, *r));
    QVERIFY2(json.contains("\"io_bounds\": ["), qPrintable(json));
    QCOMPARE(json.count("\"io_bounds\""), 2);
    QVERIFY2(json.contains("\"min_traffic\": 6761785428.16"), qPrintable(json));
    QVERIFY(json.contains("\"limit_intensity\": 2336"));
    QVERIFY(json.contains("\"beyond_io_bound\": false"));
    const QString table = QString::fromStdString(llmTable(preset("H100"), model, spec, *r));
    QVERIFY2(table.contains("attention I/O bound (score and value together"), qPrintable(table));
}

void TestAttentionIoBounds::llmDragPastTheBoundIsFlagged_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<double>("factor");
    QTest::addColumn<bool>("beyond");
    // The score operator's bytes halved: 0.75 of the compulsory bytes in all, under them.
    QTest::newRow("score halved") << "attention score" << 0.5 << true;
    QTest::newRow("value halved") << "attention value" << 0.5 << true;
    QTest::newRow("score as modelled") << "attention score" << 1.0 << false;
    // Other operators have no attention bound.
    QTest::newRow("QKV projection halved") << "QKV projection" << 0.5 << false;
}

void TestAttentionIoBounds::llmDragPastTheBoundIsFlagged()
{
    QFETCH(QString, kind);
    QFETCH(double, factor);
    QFETCH(bool, beyond);
    Workload w;
    w.model
        = LlmWorkload { test::builtinModel("llama-3-8b"), fusedPrefill(8192), kind.toStdString() };
    auto point = workloadPoint(w, QuantMode::None, preset("H100"));
    QVERIFY2(point, point ? "" : point.error().c_str());
    KernelPoint moved = *point;
    moved.bytes.front().bytes *= factor;
    const auto excess = workloadIoExcess(w, QuantMode::None, preset("H100"), moved);
    QCOMPARE(excess.has_value(), beyond);
    if (excess) {
        QCOMPARE(excess->bound.capacity.level, MemoryLevel::L2);
        QVERIFY(near(excess->trafficBytes, 0.75 * 32.0 * 167772160.0, 1e-12));
        QVERIFY2(ioBoundDiagnosis(*excess).evidence.find("less than reading Q, K and V")
                != std::string::npos,
            ioBoundDiagnosis(*excess).evidence.c_str());
    }
}

void TestAttentionIoBounds::unfusedAttentionHasNoBound()
{
    // The score matrix goes through memory: two matmuls and a softmax, not one attention kernel.
    const ModelConfig model = test::builtinModel("llama-3-8b");
    const LlmSpec spec = test::llmStep(LlmPhase::Prefill, 8192, 1);
    auto r = modelLlm(model, spec, preset("H100"));
    QVERIFY(r);
    QVERIFY(!llmAttentionIo(model, spec, preset("H100"), *r));
    QVERIFY(
        !QString::fromStdString(llmJson(preset("H100"), model, spec, *r)).contains("io_bounds"));
}

void TestAttentionIoBounds::traceShape_data()
{
    QTest::addColumn<QString>("group");
    QTest::addColumn<double>("heads");
    QTest::addColumn<double>("kvHeads");
    QTest::addColumn<double>("n");
    QTest::addColumn<double>("nKv");
    QTest::addColumn<double>("pairs");
    QTest::addColumn<double>("keys");
    // [B, H, L, D]: 2 sequences of 32 heads over 8 KV heads, 1024 tokens; causal pairs 1024·1025/2.
    QTest::newRow("flash, [B, H, L, D]")
        << "aten::_scaled_dot_product_flash_attention(c10::BFloat16[2, 32, 1024, 128], "
           "c10::BFloat16[2, 8, 1024, 128], c10::BFloat16[2, 8, 1024, 128])"
        << 64.0 << 16.0 << 1024.0 << 1024.0 << 524800.0 << 1024.0;
    // [B, L, H, D], 16 queries over 4096 keys: a causal mask scores keys 0..15 only.
    QTest::newRow("flash forward, [B, L, H, D]")
        << "aten::_flash_attention_forward(c10::Half[1, 16, 8, 64], c10::Half[1, 4096, 8, 64], "
           "c10::Half[1, 4096, 8, 64])"
        << 8.0 << 8.0 << 16.0 << 16.0 << 136.0 << 4096.0;
    QTest::newRow("a backward pass") << "aten::_flash_attention_backward(c10::Half[1, 16, 8, 64], "
                                        "c10::Half[1, 16, 8, 64], c10::Half[1, 16, 8, 64])"
                                     << 0.0 << 0.0 << 0.0 << 0.0 << 0.0 << 0.0;
    QTest::newRow("head sizes differ") << "aten::scaled_dot_product_attention(float[1, 2, 8, 64], "
                                          "float[1, 2, 8, 32], float[1, 2, 8, 64])"
                                       << 0.0 << 0.0 << 0.0 << 0.0 << 0.0 << 0.0;
    QTest::newRow("a matmul") << "aten::mm(float[64, 32], float[32, 16])" << 0.0 << 0.0 << 0.0
                              << 0.0 << 0.0 << 0.0;
}

void TestAttentionIoBounds::traceShape()
{
    QFETCH(QString, group);
    QFETCH(double, heads);
    QFETCH(double, kvHeads);
    QFETCH(double, n);
    QFETCH(double, nKv);
    QFETCH(double, pairs);
    QFETCH(double, keys);
    const auto t = kineto::attentionShapeOfGroup(group.toStdString());
    QCOMPARE(t.has_value(), heads > 0.0);
    if (!t)
        return;
    QCOMPARE(t->shape.heads, heads);
    QCOMPARE(t->shape.kvHeads, kvHeads);
    QCOMPARE(t->shape.n, n);
    QCOMPARE(t->shape.nKv, nKv);
    QCOMPARE(t->shape.pairs, pairs);
    QCOMPARE(t->keys, keys);
    QCOMPARE(t->unmaskedFlops, 2.0 * heads * n * keys * (t->shape.d + t->shape.dv));
}

QTEST_GUILESS_MAIN(TestAttentionIoBounds)
#include "tst_attentioniobounds.moc"
