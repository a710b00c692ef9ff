// LLM inference on the roofline (docs/MODEL.md §8): model files, operator points for prefill and
// decode, KV-cache traffic, grouped-query attention, batch and quantization behaviour, and the
// bottleneck of a measured generation. Expected values are written out here from the shapes.
#include "core/presets/presets.h"
#include "core/workloads/llm.h"

#include "tests/support/core_test_support.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>

using namespace ridgepoint;

namespace {

using test::close;
using test::preset;

ModelConfig model(const char *name)
{
    static const std::vector<ModelConfig> models = builtinModels();
    auto found = findModel(models, name);
    if (!found)
        qFatal("%s", found.error().c_str());
    return *found;
}

LlmSpec decode(std::int64_t seq, std::int64_t batch, Precision weights = Precision::BF16)
{
    LlmSpec spec;
    spec.phase = LlmPhase::Decode;
    spec.seq = seq;
    spec.batch = batch;
    spec.weights = weights;
    return spec;
}

std::map<std::string, AnalyzedPoint> byKind(const LlmResult &result)
{
    std::map<std::string, AnalyzedPoint> out;
    for (const auto &p : result.operators)
        out[p.point.name] = p;
    return out;
}

double intensity(const AnalyzedPoint &p)
{
    return p.analysis.levels.front().intensity;
}

const std::vector<std::string> kLinear { "QKV projection", "output projection", "FFN up",
    "FFN gate", "FFN down", "LM head" };
const std::vector<std::string> kAttention { "attention score", "attention value" };

// Weights of the linear layers: per layer Q, K, V, O and three FFN matrices; plus the LM head.
double linearParameters(const ModelConfig &m)
{
    const double h = double(m.hiddenSize), hd = double(m.headDim);
    const double q = double(m.heads) * hd, kv = double(m.kvHeads) * hd;
    const double perLayer = h * (q + 2 * kv) + q * h + 3 * h * double(m.ffnSize);
    return double(m.layers) * perLayer + h * double(m.vocabSize);
}

} // namespace

class TestLlm : public QObject
{
    Q_OBJECT

private slots:
    void builtinModelsMatchTheirConfigs_data();
    void builtinModelsMatchTheirConfigs();
    void findsModelsByLooseName();
    void rejectsBrokenModelFiles_data();
    void rejectsBrokenModelFiles();
    void decodeBatchOneLinearLayersNearOneFlopPerByte_data();
    void decodeBatchOneLinearLayersNearOneFlopPerByte();
    void linearLayersRiseWithBatchAttentionDoesNot();
    void int8WeightsRoughlyDoubleTheIntensity();
    void groupedQueryAttentionReadsOnlyKvHeads();
    void countsKvCacheReadsAndWrites();
    void wholeModelFlopsFromParameterCount_data();
    void wholeModelFlopsFromParameterCount();
    void prefillIsComputeBoundDecodeMemoryBound();
    void totalsAndEstimatedTime();
    void fusedAttentionDropsTheScoreMatrix();
    void computePrecisionFollowsWeightsAndActivations();
    void missingCeilingIsNamed();
    void analyzesAMeasuredGeneration();
};

void TestLlm::builtinModelsMatchTheirConfigs_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<qint64>("hidden");
    QTest::addColumn<qint64>("layers");
    QTest::addColumn<qint64>("heads");
    QTest::addColumn<qint64>("kvHeads");
    QTest::addColumn<qint64>("ffn");
    QTest::addColumn<qint64>("vocab");
    // The Hugging Face config.json of each model.
    QTest::newRow("Mistral-7B") << "Mistral-7B" << qint64(4096) << qint64(32) << qint64(32)
                                << qint64(8) << qint64(14336) << qint64(32000);
    QTest::newRow("Llama-2-7B") << "Llama-2-7B" << qint64(4096) << qint64(32) << qint64(32)
                                << qint64(32) << qint64(11008) << qint64(32000);
    QTest::newRow("Llama-2-13B") << "Llama-2-13B" << qint64(5120) << qint64(40) << qint64(40)
                                 << qint64(40) << qint64(13824) << qint64(32000);
    QTest::newRow("Llama-2-70B") << "Llama-2-70B" << qint64(8192) << qint64(80) << qint64(64)
                                 << qint64(8) << qint64(28672) << qint64(32000);
    QTest::newRow("Llama-3-8B") << "Llama-3-8B" << qint64(4096) << qint64(32) << qint64(32)
                                << qint64(8) << qint64(14336) << qint64(128256);
    QTest::newRow("Llama-3-70B") << "Llama-3-70B" << qint64(8192) << qint64(80) << qint64(64)
                                 << qint64(8) << qint64(28672) << qint64(128256);
}

void TestLlm::builtinModelsMatchTheirConfigs()
{
    QFETCH(QString, name);
    QFETCH(qint64, hidden);
    QFETCH(qint64, layers);
    QFETCH(qint64, heads);
    QFETCH(qint64, kvHeads);
    QFETCH(qint64, ffn);
    QFETCH(qint64, vocab);
    std::vector<Diagnostic> problems;
    const auto models = builtinModels(&problems);
    QVERIFY(problems.empty());
    QCOMPARE(models.size(), std::size_t(9)); // 6 dense, 3 mixtures of experts
    const auto m = findModel(models, name.toStdString());
    QVERIFY(m);
    QCOMPARE(QString::fromStdString(m->name), name);
    QCOMPARE(m->hiddenSize, hidden);
    QCOMPARE(m->layers, layers);
    QCOMPARE(m->heads, heads);
    QCOMPARE(m->kvHeads, kvHeads);
    QCOMPARE(m->headDim, hidden / heads);
    QCOMPARE(m->ffnSize, ffn);
    QCOMPARE(m->vocabSize, vocab);
    QVERIFY(!m->source.empty());
}

void TestLlm::findsModelsByLooseName()
{
    const auto models = builtinModels();
    QCOMPARE(findModel(models, "llama2-70b")->name, std::string("Llama-2-70B"));
    QCOMPARE(findModel(models, "LLAMA 3 8B")->name, std::string("Llama-3-8B"));
    QCOMPARE(findModel(models, "mistral")->name, std::string("Mistral-7B"));
    const auto ambiguous = findModel(models, "llama-2");
    QVERIFY(!ambiguous);
    QVERIFY(QString::fromStdString(ambiguous.error()).contains("several models"));
    const auto unknown = findModel(models, "gpt-5");
    QVERIFY(!unknown);
    QVERIFY(QString::fromStdString(unknown.error()).contains("Llama-3-70B"));
}

void TestLlm::rejectsBrokenModelFiles_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("message");
    const QByteArray head = R"({"format": "ridgepoint-model", "name": "m", "source": "s", )";
    QTest::newRow("missing layers")
        << head + R"("hidden_size": 8, "heads": 2, "kv_heads": 2, "ffn_size": 8, "vocab_size": 8})"
        << "m.json: \"layers\" is missing (a positive integer)";
    QTest::newRow("kv heads do not divide heads")
        << head
            + R"("hidden_size": 8, "layers": 1, "heads": 4, "kv_heads": 3, "ffn_size": 8, "vocab_size": 8})"
        << "m.json: the query heads (4) must be a multiple of the key/value heads (3)";
    QTest::newRow("negative size")
        << head
            + R"("hidden_size": -8, "layers": 1, "heads": 2, "kv_heads": 2, "ffn_size": 8, "vocab_size": 8})"
        << "m.json: \"hidden_size\" must be a positive integer, found -8";
    QTest::newRow("wrong format") << QByteArray(R"({"format": "ridgepoint-hardware"})")
                                  << "m.json: \"format\" must be \"ridgepoint-model\"";
    QTest::newRow("invalid JSON") << QByteArray("{\n  \"format\": ,\n}")
                                  << "m.json:2:13: invalid JSON: syntax error while parsing value "
                                     "- unexpected ','; expected '[', '{', or a literal";
}

void TestLlm::rejectsBrokenModelFiles()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, message);
    const auto result = readModelConfigJson(text.toStdString(), "m.json");
    QVERIFY(result.models.empty());
    QCOMPARE(result.diagnostics.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(result.diagnostics.front().toString()), message);
}

void TestLlm::decodeBatchOneLinearLayersNearOneFlopPerByte_data()
{
    QTest::addColumn<QString>("name");
    QTest::newRow("Llama-2-7B") << "Llama-2-7B";
    QTest::newRow("Llama-3-8B") << "Llama-3-8B";
    QTest::newRow("Llama-2-70B") << "Llama-2-70B";
}

void TestLlm::decodeBatchOneLinearLayersNearOneFlopPerByte()
{
    QFETCH(QString, name);
    const ModelConfig m = model(name.toUtf8().constData());
    const auto r = modelLlm(m, decode(1024, 1), preset("H100"));
    QVERIFY2(r, r ? "" : r.error().c_str());
    const auto ops = byKind(*r);
    for (const auto &kind : kLinear) {
        const double i = intensity(ops.at(kind));
        QVERIFY2(i > 0.99 && i < 1.0, (kind + " " + std::to_string(i)).c_str());
        QCOMPARE(ops.at(kind).analysis.bound, Bound::Memory);
    }
    // FFN up at batch 1 by hand: 2·h·ffn FLOPs over 2·h·ffn + 2h + 2·ffn bytes.
    const double h = double(m.hiddenSize), f = double(m.ffnSize);
    QVERIFY(close(intensity(ops.at("FFN up")), 2 * h * f / (2 * h * f + 2 * h + 2 * f)));
    QCOMPARE(ops.at("FFN up").point.flops, 2 * h * f * double(m.layers));
}

void TestLlm::linearLayersRiseWithBatchAttentionDoesNot()
{
    const ModelConfig m = model("Llama-2-13B");
    std::map<std::string, double> last;
    for (std::int64_t batch : { 1, 4, 16, 64, 256 }) {
        const auto r = modelLlm(m, decode(2048, batch), preset("H100"));
        QVERIFY(r);
        const auto ops = byKind(*r);
        for (const auto &kind : kLinear) {
            const double i = intensity(ops.at(kind));
            if (batch > 1)
                QVERIFY2(i > 1.5 * last[kind], kind.c_str());
            last[kind] = i;
        }
        for (const auto &kind : kAttention) {
            const double i = intensity(ops.at(kind));
            if (batch > 1)
                QVERIFY2(close(i, last[kind], 1e-12), kind.c_str());
            last[kind] = i;
        }
    }
    // By hand, FFN down at batch 256: 2·b·f·h / (2·f·h + 2·b·f + 2·b·h).
    const double b = 256, h = 5120, f = 13824;
    QVERIFY(close(last["FFN down"], 2 * b * f * h / (2 * f * h + 2 * b * f + 2 * b * h)));
}

void TestLlm::int8WeightsRoughlyDoubleTheIntensity()
{
    const ModelConfig m = model("Mistral-7B");
    const auto bf16 = modelLlm(m, decode(1024, 1), preset("H100"));
    const auto int8 = modelLlm(m, decode(1024, 1, Precision::INT8), preset("H100"));
    const auto int4 = modelLlm(m, decode(1024, 1, Precision::INT4), preset("H100"));
    QVERIFY(bf16 && int8 && int4);
    const auto a = byKind(*bf16), b = byKind(*int8), c = byKind(*int4);
    for (const auto &kind : kLinear) {
        const double ratio8 = intensity(b.at(kind)) / intensity(a.at(kind));
        const double ratio4 = intensity(c.at(kind)) / intensity(a.at(kind));
        QVERIFY2(ratio8 > 1.95 && ratio8 <= 2.0, (kind + " " + std::to_string(ratio8)).c_str());
        QVERIFY2(ratio4 > 3.8 && ratio4 <= 4.0, (kind + " " + std::to_string(ratio4)).c_str());
    }
    // Weight-only quantization keeps the bf16 ceiling (w8a16).
    QCOMPARE(int8->operators.front().analysis.computeCeiling, std::string("BF16 tensor"));
}

void TestLlm::groupedQueryAttentionReadsOnlyKvHeads()
{
    ModelConfig gqa = model("Llama-3-8B"); // 32 query heads, 8 KV heads
    ModelConfig mha = gqa;
    mha.kvHeads = mha.heads;
    const auto spec = decode(4096, 8);
    const auto a = llmOperators(gqa, spec);
    const auto b = llmOperators(mha, spec);
    QVERIFY(a && b);
    const LlmOperator &score = (*a)[5]; // after embedding, norm, QKV, rotary, KV write
    QCOMPARE(score.kind, std::string("attention score"));
    // K of 4096 positions, 8 heads of 128, bf16, 8 sequences, per layer.
    QCOMPARE(score.kvReadBytesPerLayer, 8.0 * 4096 * 8 * 128 * 2);
    QCOMPARE((*b)[5].kvReadBytesPerLayer, 4.0 * score.kvReadBytesPerLayer);
    QCOMPARE(score.flopsPerLayer, (*b)[5].flopsPerLayer); // the same work
    // So GQA's decode attention is ≈ 4× as intense.
    const double ratio = (score.flopsPerLayer / score.bytesPerLayer)
        / ((*b)[5].flopsPerLayer / (*b)[5].bytesPerLayer);
    QVERIFY2(ratio > 2.5 && ratio < 4.0, qPrintable(QString::number(ratio)));
}

void TestLlm::countsKvCacheReadsAndWrites()
{
    const ModelConfig m = model("Llama-2-70B");
    LlmSpec spec = decode(3000, 4);
    spec.kv = Precision::INT8;
    const auto r = modelLlm(m, spec, preset("H100"));
    QVERIFY(r);
    const double layers = 80, hkv = 8 * 128, b = 4, L = 3000;
    QCOMPARE(r->kvWriteBytes, layers * b * 2 * hkv * 1.0); // one new K and V per sequence
    QCOMPARE(r->kvReadBytes, layers * 2 * b * L * hkv * 1.0); // every K and V in the context
    // Prefill writes the K and V of every prompt token.
    LlmSpec prefill = spec;
    prefill.phase = LlmPhase::Prefill;
    prefill.seq = 512;
    const auto p = modelLlm(m, prefill, preset("H100"));
    QVERIFY(p);
    QCOMPARE(p->kvWriteBytes, layers * b * 512 * 2 * hkv * 1.0);
}

void TestLlm::wholeModelFlopsFromParameterCount_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("phase");
    QTest::addColumn<qint64>("seq");
    QTest::addColumn<qint64>("batch");
    QTest::newRow("Llama-2-7B decode") << "Llama-2-7B"
                                       << "decode" << qint64(1024) << qint64(1);
    QTest::newRow("Llama-3-70B decode b32") << "Llama-3-70B"
                                            << "decode" << qint64(8192) << qint64(32);
    QTest::newRow("Mistral-7B prefill") << "Mistral-7B"
                                        << "prefill" << qint64(512) << qint64(2);
}

void TestLlm::wholeModelFlopsFromParameterCount()
{
    QFETCH(QString, name);
    QFETCH(QString, phase);
    QFETCH(qint64, seq);
    QFETCH(qint64, batch);
    const ModelConfig m = model(name.toUtf8().constData());
    LlmSpec spec = decode(seq, batch);
    spec.phase = *llmPhaseFromName(phase.toStdString());
    const auto r = modelLlm(m, spec, preset("H100"));
    QVERIFY(r);
    const double b = double(batch), s = double(seq);
    const double lmHead = double(m.hiddenSize) * double(m.vocabSize);
    const double layerParams = linearParameters(m) - lmHead;
    const double tokens = spec.phase == LlmPhase::Prefill ? s : 1.0;
    const double pairs = spec.phase == LlmPhase::Prefill ? s * (s + 1) / 2 : s;
    // 2 FLOPs per weight per token, the LM head on the last token only, and Q·K plus P·V.
    const double expected = 2 * layerParams * b * tokens + 2 * lmHead * b
        + 2 * 2 * double(m.layers) * double(m.heads) * double(m.headDim) * pairs * b;
    // The matmuls and attention (norms, softmax and the other elementwise operators apart).
    double matmulFlops = 0;
    for (const auto &op : r->operators) {
        if (std::ranges::find(kLinear, op.point.name) != kLinear.end()
            || std::ranges::find(kAttention, op.point.name) != kAttention.end())
            matmulFlops += op.point.flops;
    }
    QVERIFY(close(matmulFlops, expected, 1e-12));
    QVERIFY(r->total.point.flops > matmulFlops);
    if (spec.phase == LlmPhase::Decode && batch == 1) // about 2 FLOPs per parameter
        QVERIFY(matmulFlops / linearParameters(m) > 2.0);
}

void TestLlm::prefillIsComputeBoundDecodeMemoryBound()
{
    const ModelConfig m = model("Llama-2-7B");
    LlmSpec prefill = decode(2048, 1);
    prefill.phase = LlmPhase::Prefill;
    const auto p = modelLlm(m, prefill, preset("H100"));
    const auto d = modelLlm(m, decode(2048, 1), preset("H100"));
    QVERIFY(p && d);
    QCOMPARE(p->total.analysis.bound, Bound::Compute);
    QCOMPARE(d->total.analysis.bound, Bound::Memory);
    // LLM-Viewer's observation (arXiv:2402.16363): decode ~1-2 FLOP/B, long prefill hundreds.
    QVERIFY(intensity(d->total) > 0.9 && intensity(d->total) < 2.0);
    QVERIFY(intensity(p->total) > 200);
}

void TestLlm::totalsAndEstimatedTime()
{
    const auto r = modelLlm(model("Llama-3-8B"), decode(512, 16), preset("A100 80GB"));
    QVERIFY(r);
    QCOMPARE(r->operators.size(), std::size_t(18)); // a dense model's every operator
    double flops = 0, bytes = 0, seconds = 0;
    for (const auto &op : r->operators) {
        flops += op.point.flops;
        bytes += op.point.bytes.front().bytes;
        seconds += op.analysis.tMin;
        QVERIFY(!op.point.seconds);
        QVERIFY(!op.point.group.empty());
    }
    QCOMPARE(r->total.point.flops, flops);
    QCOMPARE(r->total.point.bytes.front().bytes, bytes);
    QVERIFY(close(r->estimatedSeconds, seconds));
    QVERIFY(r->estimatedSeconds >= r->total.analysis.tMin);
    QVERIFY(r->memoryBoundSeconds <= r->estimatedSeconds);
}

void TestLlm::fusedAttentionDropsTheScoreMatrix()
{
    const ModelConfig m = model("Llama-2-7B");
    LlmSpec spec = decode(1024, 1);
    spec.phase = LlmPhase::Prefill;
    const auto plain = llmOperators(m, spec);
    spec.fusedAttention = true;
    const auto fused = llmOperators(m, spec);
    QVERIFY(plain && fused);
    const double pairs = 1024.0 * 1025.0 / 2.0;
    // Scores written by one kernel and read by the next: heads · pairs · 2 bytes each way;
    // plain: score 5, softmax 6, value 7; fused: score 5, value 6.
    QCOMPARE((*plain)[6].kind, std::string("softmax"));
    QCOMPARE((*fused)[6].kind, std::string("attention value"));
    QCOMPARE((*plain)[5].bytesPerLayer - (*fused)[5].bytesPerLayer, 32 * pairs * 2);
    QCOMPARE((*plain)[7].bytesPerLayer - (*fused)[6].bytesPerLayer, 32 * pairs * 2);
    QCOMPARE((*plain)[2].bytesPerLayer, (*fused)[2].bytesPerLayer);
}

void TestLlm::computePrecisionFollowsWeightsAndActivations()
{
    LlmSpec spec;
    QCOMPARE(llmComputePrecision(spec), Precision::BF16);
    spec.weights = Precision::INT4;
    QCOMPARE(llmComputePrecision(spec), Precision::BF16); // w4a16
    spec.activations = Precision::INT8;
    QCOMPARE(llmComputePrecision(spec), Precision::INT8);
    spec.weights = Precision::INT8;
    QCOMPARE(llmComputePrecision(spec), Precision::INT8); // w8a8
    spec.activations = Precision::FP16;
    spec.weights = Precision::FP16;
    QCOMPARE(llmComputePrecision(spec), Precision::FP16);
}

void TestLlm::missingCeilingIsNamed()
{
    // The T4 has no bf16 ceiling (fp16 is its tensor precision).
    const auto r = modelLlm(model("Mistral-7B"), decode(128, 1), preset("T4"));
    QVERIFY(!r);
    QCOMPARE(QString::fromStdString(r.error()),
        QString("NVIDIA T4 has no bf16 compute ceiling (needed by the chosen weight and "
                "activation types)"));
    LlmSpec fp16 = decode(128, 1, Precision::FP16);
    fp16.activations = Precision::FP16;
    fp16.kv = Precision::FP16;
    QVERIFY(modelLlm(model("Mistral-7B"), fp16, preset("T4")));
}

void TestLlm::analyzesAMeasuredGeneration()
{
    const ModelConfig m = model("Llama-2-7B");
    LlmSpec spec = decode(1, 1);
    const std::int64_t prompt = 128, generated = 100;
    const auto g = analyzeGeneration(m, spec, prompt, generated, 2.5, preset("H100"));
    QVERIFY2(g, g ? "" : g.error().c_str());
    QCOMPARE(g->bottleneck, std::string("memory-bound"));
    // FLOPs by hand: the prefill of 128 tokens, then 99 decode steps with contexts 129..227.
    const double lmHead = 4096.0 * 32000.0;
    const double layerParams = linearParameters(m) - lmHead;
    // Per (query, key) pair over all layers: Q·K and P·V, 2·2·32 heads·128, and the softmax,
    // 5·32 heads, in 32 layers.
    const double attention = 2.0 * 2.0 * 32 * 32 * 128 + 5.0 * 32 * 32;
    // Per token: embedding 4096; per layer two norms 8·4096, rotary 3·(4096 + 4096), KV write
    // 2·4096, two residuals 2·4096, SiLU·gate 5·11008 = 128768, in 32 layers. Per step: the
    // final norm 4·4096.
    const double perToken = 4096.0 + 32 * 128768.0, perStep = 4.0 * 4096;
    const double prefill = 2 * layerParams * prompt + 2 * lmHead
        + attention * prompt * (prompt + 1) / 2.0 + perToken * prompt + perStep;
    double decodeFlops = 0;
    for (std::int64_t i = 1; i < generated; ++i)
        decodeFlops
            += 2 * layerParams + 2 * lmHead + attention * double(prompt + i) + perToken + perStep;
    QVERIFY(close(g->prefillFlops, prefill));
    QVERIFY(close(g->decodeFlops, decodeFlops));
    QCOMPARE(g->point.point.seconds, std::optional<double>(2.5));
    QVERIFY(close(*g->point.analysis.performance, (prefill + decodeFlops) / 2.5));
    QCOMPARE(g->tokensPerSecond, 40.0);
    QVERIFY(g->point.analysis.consistent);

    // Faster than the roofline allows: flagged, not celebrated.
    const auto tooFast = analyzeGeneration(m, spec, prompt, generated, 1e-4, preset("H100"));
    QVERIFY(tooFast);
    QVERIFY(!tooFast->point.analysis.consistent);
    // A long prompt and one token: the prefill dominates and is compute-bound.
    const auto prefillOnly = analyzeGeneration(m, spec, 4096, 1, 1.0, preset("H100"));
    QVERIFY(prefillOnly);
    QCOMPARE(prefillOnly->bottleneck, std::string("compute-bound"));
    QVERIFY(!analyzeGeneration(m, spec, 0, 10, 1.0, preset("H100")));
    QVERIFY(!analyzeGeneration(m, spec, 10, 10, -1.0, preset("H100")));
}

QTEST_GUILESS_MAIN(TestLlm)
#include "tst_llm.moc"
