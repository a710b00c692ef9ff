// Parallelism of an LLM step (docs/WORKLOADS.md, "Parallelism"): per-chip operators for tp, ep
// and pp, the collectives on the link roof (TP ring all-reduce, EP all-to-all, PP send/receive),
// T_network in the step's time and the batch at which a stage turns network-bound; and the
// per-operator trajectories of a sweep. Expected values are worked out by hand in the comments.
#include "core/workloads/llm.h"
#include "core/workloads/llm_parallel.h"
#include "core/workloads/llm_trajectory.h"

#include "tests/support/core_test_support.h"

#include <QTest>

#include <map>
#include <tuple>

using namespace ridgepoint;

namespace {

using test::close;
using test::preset;

std::map<std::string, LlmOperator> byKind(const std::vector<LlmOperator> &ops)
{
    std::map<std::string, LlmOperator> out;
    for (const auto &op : ops)
        out[op.kind] = op;
    return out;
}

std::map<std::string, AnalyzedPoint> byName(const LlmResult &result)
{
    std::map<std::string, AnalyzedPoint> out;
    for (const auto &p : result.operators)
        out[p.point.name] = p;
    return out;
}

// A small mixture-of-experts model built by hand (until the MoE files land): 8 experts, 2 per
// token, h 1024, 4 layers.
ModelConfig tinyMoe(std::int64_t denseLayers)
{
    ModelConfig m;
    m.name = "tiny-moe";
    m.hiddenSize = 1024;
    m.layers = 4;
    m.heads = 8;
    m.kvHeads = 8;
    m.headDim = 128;
    m.ffnSize = 2048;
    m.vocabSize = 1000;
    m.experts = 8;
    m.expertsPerToken = 2;
    m.denseLayers = denseLayers;
    return m;
}

// One compute roof (bf16 1e14 FLOP/s), HBM 1e12 B/s and a 1e10 B/s PCIe link, no sustained
// fraction: round numbers for the network-bound batch.
Hardware roundMachine()
{
    Hardware hw;
    hw.name = "Round";
    ComputeCeiling bf16;
    bf16.name = "BF16";
    bf16.precision = Precision::BF16;
    bf16.peak = 1e14;
    hw.compute.push_back(bf16);
    for (auto [name, level, bandwidth] : { std::tuple { "HBM", MemoryLevel::HBM, 1e12 },
             std::tuple { "PCIe", MemoryLevel::PCIe, 1e10 } }) {
        MemoryCeiling m;
        m.name = name;
        m.level = level;
        m.bandwidth = bandwidth;
        hw.memory.push_back(m);
    }
    return hw;
}

} // namespace

class TestLlmParallel : public QObject
{
    Q_OBJECT

private slots:
    void tensorParallelAllReduce_data();
    void tensorParallelAllReduce();
    void perChipDivision_data();
    void perChipDivision();
    void expertParallelAllToAll_data();
    void expertParallelAllToAll();
    void pipelineSendReceive();
    void rejectsImpossibleDegrees_data();
    void rejectsImpossibleDegrees();
    void networkBoundBatch();
    void oneChipIsUnchanged();
    void trajectoriesPerOperator();
};

void TestLlmParallel::tensorParallelAllReduce_data()
{
    QTest::addColumn<int>("tp");
    QTest::addColumn<int>("batch");
    QTest::addColumn<bool>("prefill");
    QTest::addColumn<double>("bytes"); // per all-reduce kind, over the 32 layers
    QTest::addColumn<double>("flops");
    // Llama-2-7B, h 4096, bf16 (2 B), 32 layers; rows of activations b · new tokens.
    // tp 2, decode batch 8: elements 8·4096 = 32768; bytes 2·(1/2)·32768·2 = 65536 per layer,
    // ×32 = 2,097,152; FLOPs (1/2)·32768 = 16384 per layer, ×32 = 524,288.
    QTest::newRow("tp2 decode b8") << 2 << 8 << false << 2097152.0 << 524288.0;
    // tp 8, decode batch 1: elements 4096; bytes 2·(7/8)·4096·2 = 14336, ×32 = 458,752;
    // FLOPs (7/8)·4096 = 3584, ×32 = 114,688.
    QTest::newRow("tp8 decode b1") << 8 << 1 << false << 458752.0 << 114688.0;
    // tp 4, prefill of 128 tokens, batch 2: elements 2·128·4096 = 1,048,576; bytes
    // 2·(3/4)·1048576·2 = 3,145,728, ×32 = 100,663,296; FLOPs (3/4)·1048576 = 786,432, ×32 =
    // 25,165,824.
    QTest::newRow("tp4 prefill 128 b2") << 4 << 2 << true << 100663296.0 << 25165824.0;
}

void TestLlmParallel::tensorParallelAllReduce()
{
    QFETCH(int, tp);
    QFETCH(int, batch);
    QFETCH(bool, prefill);
    QFETCH(double, bytes);
    QFETCH(double, flops);
    const Hardware &h100 = preset("H100 SXM");
    const auto r = modelLlm(test::builtinModel("llama-2-7b"),
        test::llmStep(
            prefill ? LlmPhase::Prefill : LlmPhase::Decode, prefill ? 128 : 1024, batch, tp),
        h100);
    QVERIFY2(r.has_value(), r ? "" : r.error().c_str());
    const auto points = byName(*r);
    double collectives = 0.0;
    for (const char *kind : { "TP all-reduce (attention)", "TP all-reduce (FFN)" }) {
        QVERIFY2(points.contains(kind), kind);
        const AnalyzedPoint &p = points.at(kind);
        QCOMPARE(p.point.bytes.size(), std::size_t { 1 });
        QCOMPARE(p.point.bytes.front().level, std::optional(MemoryLevel::NVLink));
        QVERIFY(close(p.point.bytes.front().bytes, bytes));
        QVERIFY(close(p.point.flops, flops));
        // On the NVLink roof: NVIDIA's 900 GB/s counts both directions, the roof is 450 GB/s
        // each way (docs/PRESETS.md, "Links"), the bytes are what one rank sends; T = bytes /
        // 4.5e11 (intensity 0.25 FLOP/B is far below the ridge, so the link binds).
        QCOMPARE(p.analysis.limitingCeiling, std::string("NVLink 4"));
        QVERIFY(close(p.analysis.tMin, bytes / 4.5e11, 1e-9));
        collectives += p.analysis.tMin;
    }
    // T_network is part of the step's time: the sum over operators includes it.
    double sum = 0.0;
    for (const auto &p : r->operators)
        sum += p.analysis.tMin;
    QVERIFY(close(r->estimatedSeconds, sum, 1e-12));
    QVERIFY(collectives > 0.0 && collectives < r->estimatedSeconds);
    // The whole-model point carries the link bytes as a second level.
    QCOMPARE(r->total.point.bytes.size(), std::size_t { 2 });
    QVERIFY(close(r->total.point.bytes.back().bytes, 2.0 * bytes));
}

void TestLlmParallel::perChipDivision_data()
{
    QTest::addColumn<QString>("modelName");
    QTest::addColumn<int>("tp");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<double>("flops"); // per layer, per chip
    QTest::addColumn<double>("weightBytes");
    QTest::addColumn<double>("kvReadBytes");
    QTest::addColumn<double>("bytes");
    // Llama-2-7B decode, context 1024, batch 1, bf16 (h 4096, 32 heads = 32 KV heads of 128).
    // QKV, one chip: FLOPs 2·4096·12288 = 100,663,296; weights 4096·12288·2 = 100,663,296 B;
    // bytes = weights + input 4096·2 + q 4096·2 + KV write 2·4096·2 = 100,663,296 + 32,768.
    // tp 4: everything / 4 → 25,165,824 FLOPs, 25,165,824 B weights, 25,174,016 B.
    QTest::newRow("7B tp4 QKV") << "llama-2-7b" << 4 << "QKV projection" << 25165824.0 << 25165824.0
                                << 0.0 << 25174016.0;
    // FFN up: FLOPs 2·4096·11008 = 90,177,536, weights 90,177,536 B, bytes + 4096·2 + 11008·2
    // = 90,207,744; tp 4 → 22,544,384 FLOPs and weights, 22,551,936 B.
    QTest::newRow("7B tp4 FFN up")
        << "llama-2-7b" << 4 << "FFN up" << 22544384.0 << 22544384.0 << 0.0 << 22551936.0;
    // Attention score: FLOPs 2·32·1024·128 = 8,388,608; KV read 1024·4096·2 = 8,388,608 B;
    // bytes = q 8192 + KV 8,388,608 + scores 32·1024·2 = 65,536 → 8,462,336; tp 4 → 2,097,152
    // FLOPs, 2,097,152 B KV, 2,115,584 B.
    QTest::newRow("7B tp4 score") << "llama-2-7b" << 4 << "attention score" << 2097152.0 << 0.0
                                  << 2097152.0 << 2115584.0;
    // Llama-3-8B (32 heads, 8 KV heads of 128) tp 16: each chip 2 query heads, but the 8 KV
    // heads are replicated, so the KV read divides by 8 only. Score, one chip: FLOPs
    // 2·32·1024·128 = 8,388,608; KV read 1024·1024·2 = 2,097,152; q 8192, scores 65,536.
    // Per chip: FLOPs 524,288; KV 262,144; bytes (8192 + 65536)/16 + 262,144 = 266,752.
    QTest::newRow("8B tp16 score GQA")
        << "llama-3-8b" << 16 << "attention score" << 524288.0 << 0.0 << 262144.0 << 266752.0;
    // The operators without weights follow their group. Attention norm (norm, replicated):
    // FLOPs 4·4096 = 16,384, bytes 2·4096·2 + gain 4096·2 = 24,576 on every chip at tp 4.
    QTest::newRow("7B tp4 attention norm")
        << "llama-2-7b" << 4 << "attention norm" << 16384.0 << 0.0 << 0.0 << 24576.0;
    // Rotary (attention, split by heads): FLOPs 3·(4096 + 4096) = 24,576, bytes 2·8192·2 +
    // cos/sin 128·2 = 33,024; tp 4 → 6,144 FLOPs, 8,256 B.
    QTest::newRow("7B tp4 rotary")
        << "llama-2-7b" << 4 << "rotary embedding" << 6144.0 << 0.0 << 0.0 << 8256.0;
    // Softmax (attention): FLOPs 5·32·1024 = 163,840, bytes 2·32·1024·2 = 131,072; tp 4 →
    // 40,960 and 32,768.
    QTest::newRow("7B tp4 softmax")
        << "llama-2-7b" << 4 << "softmax" << 40960.0 << 0.0 << 0.0 << 32768.0;
    // KV-cache write on Llama-3-8B tp 16: C = 2·8·128 = 2048 elements a token, FLOPs 2048,
    // bytes 2048·2 read + 2048·2 written = 8192. Each chip writes its replicated KV head, so
    // all of it divides by min(16, 8) = 8: 256 FLOPs, 1024 B (not 2048/16 and 4096/16 + 4096/8).
    QTest::newRow("8B tp16 KV-cache write GQA")
        << "llama-3-8b" << 16 << "KV-cache write" << 256.0 << 0.0 << 0.0 << 1024.0;
    // LM head (vocab 32000): FLOPs 2·4096·32000 = 262,144,000, weights 262,144,000 B, bytes +
    // 8192 + 64000 = 262,216,192; tp 2 → 131,072,000 and 131,108,096.
    QTest::newRow("7B tp2 LM head")
        << "llama-2-7b" << 2 << "LM head" << 131072000.0 << 131072000.0 << 0.0 << 131108096.0;
}

void TestLlmParallel::perChipDivision()
{
    QFETCH(QString, modelName);
    QFETCH(int, tp);
    QFETCH(QString, kind);
    QFETCH(double, flops);
    QFETCH(double, weightBytes);
    QFETCH(double, kvReadBytes);
    QFETCH(double, bytes);
    const ModelConfig m = test::builtinModel(modelName.toStdString().c_str());
    const LlmSpec s = test::llmStep(LlmPhase::Decode, 1024, 1, tp);
    auto single = llmOperators(m, s);
    QVERIFY(single.has_value());
    auto ops = parallelizeLlm(*single, m, s, MemoryLevel::NVLink);
    QVERIFY2(ops.has_value(), ops ? "" : ops.error().c_str());
    const auto op = byKind(*ops).at(kind.toStdString());
    QVERIFY(close(op.flopsPerLayer, flops));
    QVERIFY(close(op.weightBytesPerLayer, weightBytes));
    QVERIFY(close(op.kvReadBytesPerLayer, kvReadBytes));
    QVERIFY(close(op.bytesPerLayer, bytes));
}

void TestLlmParallel::expertParallelAllToAll_data()
{
    QTest::addColumn<int>("ep");
    QTest::addColumn<int>("pp");
    QTest::addColumn<int>("denseLayers");
    QTest::addColumn<double>("bytes"); // per layer
    QTest::addColumn<double>("flops");
    QTest::addColumn<int>("count");
    QTest::addColumn<double>("expertFlops"); // per chip, per layer
    // Decode batch 16, h 1024, 2 experts per token, bf16: routed elements 16·1024·2 = 32,768.
    // ep 4: share 3/4; bytes dispatch + combine 2·(3/4)·32768·2 = 98,304; FLOPs of the
    // weighted combine 2·(3/4)·32768 = 49,152; 4 MoE layers. Expert FLOPs 8e9 / 4 = 2e9.
    QTest::newRow("ep4") << 4 << 1 << 0 << 98304.0 << 49152.0 << 4 << 2e9;
    // ep 8: share 7/8 → 2·(7/8)·32768·2 = 114,688 B, 57,344 FLOPs; 1 dense layer → 3 MoE
    // layers. Expert FLOPs 8e9 / 8 = 1e9.
    QTest::newRow("ep8 one dense layer") << 8 << 1 << 1 << 114688.0 << 57344.0 << 3 << 1e9;
    // ep 2 with 2 stages and 1 dense layer: ceil(3/2) = 2 MoE layers in the stage; share 1/2 →
    // 65,536 B, 32,768 FLOPs.
    QTest::newRow("ep2 pp2") << 2 << 2 << 1 << 65536.0 << 32768.0 << 2 << 4e9;
}

void TestLlmParallel::expertParallelAllToAll()
{
    QFETCH(int, ep);
    QFETCH(int, pp);
    QFETCH(int, denseLayers);
    QFETCH(double, bytes);
    QFETCH(double, flops);
    QFETCH(int, count);
    QFETCH(double, expertFlops);
    const ModelConfig m = tinyMoe(denseLayers);
    const LlmSpec s = test::llmStep(LlmPhase::Decode, 512, 16, 1, ep, pp);
    // A hand-built expert operator: 8e9 FLOPs, 4e8 B (1e8 of them weights) per layer.
    LlmOperator expert;
    expert.kind = "expert FFN";
    expert.group = "expert";
    expert.flopsPerLayer = 8e9;
    expert.bytesPerLayer = 4e8;
    expert.weightBytesPerLayer = 1e8;
    expert.count = m.layers - denseLayers;
    LlmOperator router;
    router.kind = "router";
    router.group = "router";
    router.flopsPerLayer = 1e6;
    router.bytesPerLayer = 1e5;
    router.count = m.layers - denseLayers;
    auto ops = parallelizeLlm({ expert, router }, m, s, MemoryLevel::ICI);
    QVERIFY2(ops.has_value(), ops ? "" : ops.error().c_str());
    const auto kinds = byKind(*ops);
    const auto &a2a = kinds.at("EP all-to-all (dispatch + combine)");
    QCOMPARE(a2a.group, std::string("collective"));
    QCOMPARE(a2a.level, std::optional(MemoryLevel::ICI));
    QVERIFY(close(a2a.bytesPerLayer, bytes));
    QVERIFY(close(a2a.flopsPerLayer, flops));
    QCOMPARE(a2a.count, std::int64_t { count });
    QVERIFY(close(kinds.at("expert FFN").flopsPerLayer, expertFlops));
    QVERIFY(close(kinds.at("expert FFN").bytesPerLayer, 4e8 * expertFlops / 8e9));
    QVERIFY(close(kinds.at("router").flopsPerLayer, 1e6)); // replicated
}

void TestLlmParallel::pipelineSendReceive()
{
    // Llama-2-7B prefill of 512 tokens, batch 2, 4 stages: activations 2·512·4096 = 4,194,304
    // elements, 8,388,608 B bf16 sent once per step (1 FLOP per element by convention); each
    // stage holds 32/4 = 8 layers; the LM head stays once.
    const ModelConfig m = test::builtinModel("llama-2-7b");
    const LlmSpec s = test::llmStep(LlmPhase::Prefill, 512, 2, 1, 1, 4);
    auto ops = parallelizeLlm(*llmOperators(m, s), m, s, MemoryLevel::PCIe);
    QVERIFY2(ops.has_value(), ops ? "" : ops.error().c_str());
    const auto kinds = byKind(*ops);
    const auto &p2p = kinds.at("PP send/receive");
    QVERIFY(close(p2p.bytesPerLayer, 8388608.0));
    QVERIFY(close(p2p.flopsPerLayer, 4194304.0));
    QCOMPARE(p2p.count, std::int64_t { 1 });
    QCOMPARE(p2p.level, std::optional(MemoryLevel::PCIe));
    QCOMPARE(kinds.at("QKV projection").count, std::int64_t { 8 });
    QCOMPARE(kinds.at("LM head").count, std::int64_t { 1 });
    // 30 layers in 4 stages: ceil(30/4) = 8 in the largest.
    ModelConfig odd = m;
    odd.layers = 30;
    auto oddOps = parallelizeLlm(*llmOperators(odd, s), odd, s, MemoryLevel::PCIe);
    QCOMPARE(byKind(*oddOps).at("FFN down").count, std::int64_t { 8 });
}

void TestLlmParallel::rejectsImpossibleDegrees_data()
{
    QTest::addColumn<int>("tp");
    QTest::addColumn<int>("ep");
    QTest::addColumn<int>("pp");
    QTest::addColumn<bool>("link");
    QTest::addColumn<QString>("message");
    QTest::newRow("tp not dividing heads") << 3 << 1 << 1 << true << "does not divide";
    QTest::newRow("ep on a dense model") << 1 << 2 << 1 << true << "mixture-of-experts";
    QTest::newRow("pp above layers") << 1 << 1 << 33 << true << "more stages";
    QTest::newRow("no link") << 2 << 1 << 1 << false << "no link ceiling";
    QTest::newRow("zero tp") << 0 << 1 << 1 << true << "from 1 to";
}

void TestLlmParallel::rejectsImpossibleDegrees()
{
    QFETCH(int, tp);
    QFETCH(int, ep);
    QFETCH(int, pp);
    QFETCH(bool, link);
    QFETCH(QString, message);
    const ModelConfig m = test::builtinModel("llama-2-7b");
    const LlmSpec s = test::llmStep(LlmPhase::Decode, 16, 1, tp, ep, pp);
    auto ops = parallelizeLlm(*llmOperators(m, test::llmStep(LlmPhase::Decode, 16, 1)), m, s,
        link ? std::optional(MemoryLevel::NVLink) : std::nullopt, "Box");
    QVERIFY(!ops.has_value());
    QVERIFY2(QString::fromStdString(ops.error()).contains(message), ops.error().c_str());
}

void TestLlmParallel::networkBoundBatch()
{
    // A two-layer model, h 1024, 8 heads of 128 (8 KV heads), non-gated FFN 4096, vocab 1000;
    // decode with a context of 1 (P = 1, C = 2048), tp 2, bf16, on roundMachine (π 1e14,
    // β 1e12, β_net 1e10). Every operator of WORKLOADS.md's table, per chip, at batch b
    // (attention and ffn groups and the LM head / 2; norms, residuals, embedding whole):
    //   constant bytes: QKV 1024·3072·2/2 = 3,145,728, out 1,048,576, up 4,194,304,
    //   down 4,194,304, two norm gains 2·2048 → 12,587,008 per layer ×2, + LM head 1,024,000
    //   + final norm gain 2048 = 26,200,064 B;
    //   bytes per b, per layer: attention norm 4096, QKV 4096, rotary (8192 + 256)/2 = 4224,
    //   KV write 8192/2 = 4096, score (2048 + 2048 + 16)/2 = 2056, softmax 16, value 2056,
    //   out 2048, attention residual 6144, FFN norm 4096, up 5120, activation 8192, down 5120,
    //   FFN residual 6144 = 57,504 ×2, + embedding 4 + 4096, final norm 4096, LM head 2024 =
    //   125,228·b B → 1.25228e-7·b s (every operator memory-bound up to b ≈ 100);
    //   collectives: 2 all-reduces × 2 layers × 2·(1/2)·1024·b·2 = 8192·b B → 8.192e-7·b s.
    // T_network >= the rest when b >= 2.6200064e-5 / (8.192e-7 − 1.25228e-7) = 37.75 → 38.
    // FLOPs per b: per layer norms 2·4096, QKV 3,145,728, rotary 3072, KV write 1024,
    // score 1024, softmax 20, value 1024, out 1,048,576, residuals 2·1024, up and down
    // 2·4,194,304, activation 8192 = 12,607,508 ×2, + embedding 1024, final norm 4096,
    // LM head 1,024,000 = 26,244,136 → 2.6244136e-7·b s of math; over 8.192e-7·b: ratio
    // 0.320363; critical hidden size 1024 / 0.320363 = 3196.4.
    ModelConfig m;
    m.name = "two-layer";
    m.hiddenSize = 1024;
    m.layers = 2;
    m.heads = 8;
    m.kvHeads = 8;
    m.headDim = 128;
    m.ffnSize = 4096;
    m.vocabSize = 1000;
    m.gatedFfn = false;
    const auto n = llmNetworkBound(m, test::llmStep(LlmPhase::Decode, 1, 1, 2), roundMachine());
    QVERIFY2(n.has_value(), n ? "" : n.error().c_str());
    QVERIFY(n->has_value());
    QCOMPARE((*n)->linkCeiling, std::string("PCIe"));
    QCOMPARE((*n)->batch, std::optional<std::int64_t>(38));
    QVERIFY(close(*(*n)->tokens, 38.0));
    QVERIFY(close((*n)->largeBatchRatio, 26244136.0 / 1e14 / (8192.0 / 1e10), 1e-9));
    QVERIFY(close((*n)->criticalHidden, 1024.0 / (26244136.0 / 1e14 / (8192.0 / 1e10)), 1e-9));
    // At batch 1: T_network 8.192e-7 s.
    QVERIFY(close((*n)->networkSeconds, 8.192e-7, 1e-9));
}

void TestLlmParallel::oneChipIsUnchanged()
{
    const ModelConfig m = test::builtinModel("llama-2-7b");
    const LlmSpec s = test::llmStep(LlmPhase::Decode, 1024, 4);
    const auto single = *llmOperators(m, s);
    const auto ops = parallelizeLlm(single, m, s, std::nullopt);
    QVERIFY(ops.has_value());
    QCOMPARE(ops->size(), single.size());
    for (std::size_t i = 0; i < single.size(); ++i)
        QCOMPARE(ops->at(i).bytesPerLayer, single[i].bytesPerLayer);
    const auto n = llmNetworkBound(m, s, preset("H100 SXM"));
    QVERIFY(n.has_value() && !n->has_value());
}

void TestLlmParallel::trajectoriesPerOperator()
{
    // Decode over a growing context, seq 256 … 4096 (5 values), tp 2 on the H100: one path
    // per operator, each with 5 samples in seq order. Llama-2-7B (gated) runs 18 kinds:
    // embedding, attention norm, QKV, rotary, KV-cache write, score, softmax, value, output
    // projection, attention residual, FFN norm, FFN up, gate, activation, down, FFN residual,
    // final norm, LM head; plus 2 all-reduces = 20.
    // The attention score's intensity stays near 1 FLOP/B (it reads the cache it multiplies:
    // 2·32·s·128 FLOPs over ≈ s·4096·2 B), so it never crosses; the linear layers do not
    // depend on seq.
    const ModelConfig m = test::builtinModel("llama-2-7b");
    const auto paths = llmTrajectories(m, test::llmStep(LlmPhase::Decode, 256, 1, 2),
        preset("H100 SXM"), {}, "seq", { 256, 512, 1024, 2048, 4096 });
    QVERIFY2(paths.has_value(), paths ? "" : paths.error().c_str());
    QCOMPARE(paths->size(), std::size_t { 20 });
    for (const auto &t : *paths) {
        QCOMPARE(t.sweep.samples.size(), std::size_t { 5 });
        QCOMPARE(t.sweep.samples.front().value, 256.0);
        QCOMPARE(t.sweep.samples.back().value, 4096.0);
    }
    const auto score = std::ranges::find(*paths, "attention score", &LlmTrajectory::kind);
    QVERIFY(score != paths->end());
    QVERIFY(score->sweep.crossings.empty());
    // A batch sweep crosses: FFN up per chip, 2·b·4096·5504 FLOPs over 4096·5504·2 B of weights
    // plus activations → I ≈ b for small b; on the H100 (989e12 / 3.35e12 = 295 FLOP/B) it
    // turns compute-bound between batch 256 and 512.
    const auto batches = llmTrajectories(m, test::llmStep(LlmPhase::Decode, 1024, 1, 2),
        preset("H100 SXM"), {}, "batch", { 64, 128, 256, 512, 1024 });
    QVERIFY(batches.has_value());
    const auto up = std::ranges::find(*batches, "FFN up", &LlmTrajectory::kind);
    QCOMPARE(up->sweep.crossings.size(), std::size_t { 1 });
    QCOMPARE(up->sweep.crossings.front().before, 256.0);
    QCOMPARE(up->sweep.crossings.front().after, 512.0);
    // Workloads for the chart: 21 per value (20 operators + the whole model), 21 sweep ids.
    int next = 0;
    const auto workloads = llmSweepWorkloads(m, test::llmStep(LlmPhase::Decode, 256, 1, 2),
        preset("H100 SXM"), "g", true, "seq", { 256, 512 }, [&] { return ++next; });
    QVERIFY(workloads.has_value());
    QCOMPARE(workloads->size(), std::size_t { 42 });
    QCOMPARE(next, 21);
}

QTEST_APPLESS_MAIN(TestLlmParallel)
#include "tst_llm_parallel.moc"
