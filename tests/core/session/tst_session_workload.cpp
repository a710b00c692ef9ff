// Planned workloads in a session (core/session/session_workload.cpp, docs/FILES.md "Sessions"):
// every parameter of every workload kind survives a write and a read, and the point recomputed
// from what was read is the point of the workload before it was written (FLOPs, bytes per level,
// T_min on a preset machine). A version 1 session, written before the mixture-of-experts,
// parallelism and precision-mode keys, reads with their defaults; bad values are refused with
// their JSON path, and the heads are checked as the model files check them.
#include "core/session/session.h"
#include "core/workloads/llm.h"
#include "core/workloads/planned_workload.h"

#include "tests/support/core_test_support.h"
#include "tests/support/reader_test_support.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <functional>

using namespace ridgepoint;
using Json = nlohmann::ordered_json;

Q_DECLARE_METATYPE(ridgepoint::Workload)
Q_DECLARE_METATYPE(std::string)

namespace {

using test::preset;

LlmSpec withMode(LlmSpec spec, const char *mode)
{
    auto moded = withLlmPrecisionMode(std::move(spec), mode);
    if (!moded)
        qFatal("%s", moded.error().c_str());
    return *moded;
}

Workload llm(const ModelConfig &model, const LlmSpec &spec, std::string op = {},
    std::string group = {}, std::optional<SweepMembership> sweep = std::nullopt)
{
    return Workload { LlmWorkload { model, spec, std::move(op) }, std::move(group),
        std::move(sweep) };
}

Workload matmul(MatmulSpec spec, std::optional<TileSpec> tile = std::nullopt,
    std::optional<ShardSpec> shards = std::nullopt,
    std::optional<SweepMembership> sweep = std::nullopt)
{
    return Workload { MatmulWorkload { spec, tile, shards }, "matmuls", std::move(sweep) };
}

// A model built by hand with every field away from its default (aliases, no gated FFN, a
// separate expert FFN size, a compressed KV cache).
ModelConfig handMadeMoe()
{
    ModelConfig m;
    m.name = "hand-made MoE";
    m.aliases = { "hm", "hand made" };
    m.source = "tests/core/session/tst_session_workload.cpp";
    m.hiddenSize = 1024;
    m.layers = 6;
    m.heads = 16;
    m.kvHeads = 4;
    m.headDim = 64;
    m.ffnSize = 4096;
    m.vocabSize = 32000;
    m.gatedFfn = false;
    m.experts = 16;
    m.expertsPerToken = 4;
    m.sharedExperts = 2;
    m.moeFfnSize = 512;
    m.denseLayers = 2;
    m.kvCacheDim = 320;
    return m;
}

KernelPoint placeholder()
{
    KernelPoint p;
    p.name = "planned";
    p.flops = 1e9;
    p.bytes = { { std::nullopt, 1e6 } };
    return p;
}

// The session text of `workload` on `machine`, as JSON to edit.
Json sessionJson(const Workload &workload, const Hardware &machine)
{
    Session s;
    s.hardware = machine;
    s.points.push_back({ placeholder(), 1.0, 1.0, workload });
    return Json::parse(writeSessionJson(s));
}

// A session with one Llama-2-7B decode workload whose JSON is edited by `edit`.
std::string editedLlm(const std::function<void(Json &workload)> &edit)
{
    Json json = sessionJson(
        llm(test::builtinModel("Llama-2-7B"), test::llmStep(LlmPhase::Decode, 1024, 1)),
        preset("H100"));
    edit(json["points"][0]["workload"]);
    return json.dump(2);
}

// Field by field, so a failure names the field (operator== below catches any field added later).
void compareModels(const ModelConfig &a, const ModelConfig &b)
{
    QCOMPARE(a.name, b.name);
    QCOMPARE(a.aliases, b.aliases);
    QCOMPARE(a.source, b.source);
    QCOMPARE(a.hiddenSize, b.hiddenSize);
    QCOMPARE(a.layers, b.layers);
    QCOMPARE(a.heads, b.heads);
    QCOMPARE(a.kvHeads, b.kvHeads);
    QCOMPARE(a.headDim, b.headDim);
    QCOMPARE(a.ffnSize, b.ffnSize);
    QCOMPARE(a.vocabSize, b.vocabSize);
    QCOMPARE(a.gatedFfn, b.gatedFfn);
    QCOMPARE(a.experts, b.experts);
    QCOMPARE(a.expertsPerToken, b.expertsPerToken);
    QCOMPARE(a.sharedExperts, b.sharedExperts);
    QCOMPARE(a.moeFfnSize, b.moeFfnSize);
    QCOMPARE(a.denseLayers, b.denseLayers);
    QCOMPARE(a.kvCacheDim, b.kvCacheDim);
}

void compareSpecs(const LlmSpec &a, const LlmSpec &b)
{
    QCOMPARE(a.phase, b.phase);
    QCOMPARE(a.seq, b.seq);
    QCOMPARE(a.batch, b.batch);
    QCOMPARE(a.weights, b.weights);
    QCOMPARE(a.activations, b.activations);
    QCOMPARE(a.kv, b.kv);
    QCOMPARE(a.fusedAttention, b.fusedAttention);
    QCOMPARE(a.tp, b.tp);
    QCOMPARE(a.ep, b.ep);
    QCOMPARE(a.pp, b.pp);
    QCOMPARE(a.scaleBlock, b.scaleBlock);
    QCOMPARE(a.scaleBytes, b.scaleBytes);
    QCOMPARE(a.precisionMode, b.precisionMode);
}

void compareWorkloads(const Workload &a, const Workload &b)
{
    QCOMPARE(a.group, b.group);
    QCOMPARE(a.sweep.has_value(), b.sweep.has_value());
    if (a.sweep) {
        QCOMPARE(a.sweep->id, b.sweep->id);
        QCOMPARE(a.sweep->parameter, b.sweep->parameter);
        QCOMPARE(a.sweep->value, b.sweep->value);
    }
    QCOMPARE(a.model.index(), b.model.index());
    if (const auto *m = std::get_if<MatmulWorkload>(&a.model)) {
        const auto &n = std::get<MatmulWorkload>(b.model);
        QCOMPARE(m->spec.b, n.spec.b);
        QCOMPARE(m->spec.d, n.spec.d);
        QCOMPARE(m->spec.f, n.spec.f);
        QCOMPARE(m->spec.dtype, n.spec.dtype);
        QCOMPARE(m->spec.quant, n.spec.quant);
        QCOMPARE(m->tile.has_value(), n.tile.has_value());
        if (m->tile) {
            QCOMPARE(m->tile->bm, n.tile->bm);
            QCOMPARE(m->tile->bk, n.tile->bk);
            QCOMPARE(m->tile->bn, n.tile->bn);
        }
        QCOMPARE(m->shards.has_value(), n.shards.has_value());
        if (m->shards) {
            QCOMPARE(m->shards->chips, n.shards->chips);
            QCOMPARE(m->shards->network, n.shards->network);
            QCOMPARE(m->shards->networkBandwidth, n.shards->networkBandwidth);
        }
        return;
    }
    const auto &l = std::get<LlmWorkload>(a.model);
    const auto &k = std::get<LlmWorkload>(b.model);
    compareModels(l.model, k.model);
    if (QTest::currentTestFailed())
        return;
    compareSpecs(l.spec, k.spec);
    QCOMPARE(l.operatorKind, k.operatorKind);
}

} // namespace

class TestSessionWorkload : public QObject
{
    Q_OBJECT

private slots:
    void keepsEveryParameter_data();
    void keepsEveryParameter();
    void readsVersion1WithTodaysDefaults();
    void refusesBadWorkloads_data();
    void refusesBadWorkloads();
    void checksHeadsAsModelFilesDo_data();
    void checksHeadsAsModelFilesDo();
    void warnsAboutUnknownKeysOfAWorkload();
};

void TestSessionWorkload::keepsEveryParameter_data()
{
    QTest::addColumn<Workload>("workload");
    QTest::addColumn<QString>("machine");
    const MatmulSpec gemm { 64, 4096, 8192, Precision::BF16, QuantMode::None };
    QTest::newRow("plain matmul") << matmul(gemm) << "H100";
    QTest::newRow("tiled matmul") << matmul({ 512, 1024, 2048, Precision::FP32, QuantMode::None },
        TileSpec { 64, 32, 128 }) << "H100";
    QTest::newRow("sharded matmul, own bandwidth")
        << matmul(gemm, std::nullopt, ShardSpec { 4, "ICI", 2.5e10 }) << "TPU v5e";
    QTest::newRow("sharded matmul, first link")
        << matmul(gemm, TileSpec { 128, 128, 256 }, ShardSpec { 8, "", std::nullopt }) << "TPU v5e";
    QTest::newRow("matmul sweep member")
        << matmul(gemm, std::nullopt, std::nullopt, SweepMembership { 4, "b", 64 }) << "H100";
    LlmSpec prefill = test::llmStep(LlmPhase::Prefill, 2048, 2);
    prefill.kv = Precision::FP8;
    prefill.fusedAttention = true;
    QTest::newRow("dense prefill, one operator")
        << llm(test::builtinModel("Llama-2-7B"), prefill, "QKV projection", "prefill") << "H100";
    QTest::newRow("dense decode") << llm(
        test::builtinModel("Llama-3-8B"), test::llmStep(LlmPhase::Decode, 4096, 16))
                                  << "H100";
    QTest::newRow("Mixtral decode batch 8")
        << llm(test::builtinModel("Mixtral-8x7B"), test::llmStep(LlmPhase::Decode, 4096, 8))
        << "H100";
    QTest::newRow("Mixtral expert up") << llm(
        test::builtinModel("Mixtral-8x7B"), test::llmStep(LlmPhase::Decode, 4096, 8), "expert up")
                                       << "H100";
    QTest::newRow("DeepSeek-V3 decode (shared experts, dense layers, kvCacheDim)")
        << llm(test::builtinModel("DeepSeek-V3"), test::llmStep(LlmPhase::Decode, 8192, 64))
        << "H100";
    QTest::newRow("hand-made MoE prefill")
        << llm(handMadeMoe(), test::llmStep(LlmPhase::Prefill, 512, 4), {}, "hm") << "H100";
    QTest::newRow("Mixtral tp 2 ep 4")
        << llm(test::builtinModel("Mixtral-8x7B"), test::llmStep(LlmPhase::Decode, 4096, 8, 2, 4))
        << "H100";
    QTest::newRow("Mixtral tp 2 ep 4, EP all-to-all") << llm(test::builtinModel("Mixtral-8x7B"),
        test::llmStep(LlmPhase::Decode, 4096, 8, 2, 4), "EP all-to-all (dispatch + combine)")
                                                      << "H100";
    QTest::newRow("Llama-2-70B tp 8 pp 4 prefill") << llm(
        test::builtinModel("Llama-2-70B"), test::llmStep(LlmPhase::Prefill, 1024, 1, 8, 1, 4))
                                                   << "H100";
    QTest::newRow("Llama-2-70B tp 8, TP all-reduce") << llm(test::builtinModel("Llama-2-70B"),
        test::llmStep(LlmPhase::Decode, 1024, 32, 8), "TP all-reduce (attention)")
                                                     << "H100";
    QTest::newRow("nvfp4 (block scales)") << llm(test::builtinModel("Llama-3-70B"),
        withMode(test::llmStep(LlmPhase::Decode, 2048, 32), "nvfp4"))
                                          << "B200";
    QTest::newRow("w4a16 (scales of 2 bytes)") << llm(test::builtinModel("Mixtral-8x7B"),
        withMode(test::llmStep(LlmPhase::Decode, 2048, 1), "w4a16"))
                                               << "H100";
    QTest::newRow("fp8 mode, tp 4") << llm(test::builtinModel("Llama-3-70B"),
        withMode(test::llmStep(LlmPhase::Decode, 2048, 8, 4), "fp8"))
                                    << "H100";
    QTest::newRow("LLM sweep member")
        << llm(test::builtinModel("Mixtral-8x7B"), test::llmStep(LlmPhase::Decode, 4096, 32, 2),
               "expert down", "sweep", SweepMembership { 7, "batch", 32 })
        << "H100";
}

// Written, read back: the same workload, field by field, and the same point on the machine.
void TestSessionWorkload::keepsEveryParameter()
{
    QFETCH(Workload, workload);
    QFETCH(QString, machine);
    const Hardware &hardware = preset(machine.toUtf8().constData());
    Session s;
    s.hardware = hardware;
    s.points.push_back({ placeholder(), 1.0, 1.0, workload });

    const auto read = readSessionJson(writeSessionJson(s), "s.json");
    QVERIFY2(read.session, qPrintable(test::joined(read.diagnostics)));
    // No warning either: every key the writer writes is one the reader knows.
    QVERIFY2(read.diagnostics.empty(), qPrintable(test::joined(read.diagnostics)));
    QCOMPARE(read.session->points.size(), std::size_t { 1 });
    QVERIFY(read.session->points[0].workload);
    const Workload &back = *read.session->points[0].workload;
    compareWorkloads(back, workload);
    if (QTest::currentTestFailed())
        return;
    QVERIFY(back == workload);

    const auto before = workloadPoint(workload, QuantMode::None, hardware);
    QVERIFY2(before, before ? "" : before.error().c_str());
    const auto after = workloadPoint(back, read.session->quantMode, read.session->hardware);
    QVERIFY2(after, after ? "" : after.error().c_str());
    QCOMPARE(after->name, before->name);
    QCOMPARE(after->flops, before->flops);
    QCOMPARE(after->precision, before->precision);
    QCOMPARE(after->bytes.size(), before->bytes.size());
    for (std::size_t i = 0; i < before->bytes.size(); ++i) {
        QCOMPARE(after->bytes[i].level, before->bytes[i].level);
        QCOMPARE(after->bytes[i].bytes, before->bytes[i].bytes);
    }
    const auto timeBefore = analyzePoint(*before, workloadMachine(workload, hardware));
    const auto timeAfter = analyzePoint(*after, workloadMachine(back, read.session->hardware));
    QVERIFY2(timeBefore, timeBefore ? "" : timeBefore.error().c_str());
    QVERIFY2(timeAfter, timeAfter ? "" : timeAfter.error().c_str());
    QVERIFY(timeBefore->tMin > 0.0);
    QCOMPARE(timeAfter->tMin, timeBefore->tMin);
}

// A session written before the keys existed (version 1): a dense model on one chip, the types
// chosen one by one, no block scales.
void TestSessionWorkload::readsVersion1WithTodaysDefaults()
{
    Json json = sessionJson(llm(test::builtinModel("Llama-2-7B"),
                                test::llmStep(LlmPhase::Decode, 1024, 4), "QKV projection"),
        preset("H100"));
    json["version"] = 1;
    Json &model = json["points"][0]["workload"]["model"];
    for (const char *key : { "experts", "expertsPerToken", "sharedExperts", "moeFfnSize",
             "denseLayers", "kvCacheDim" })
        model.erase(key);
    for (const char *key : { "tp", "ep", "pp", "scaleBlock", "scaleBytes", "precisionMode" })
        json["points"][0]["workload"].erase(key);
    const auto read = readSessionJson(json.dump(2), "old.json");
    QVERIFY2(read.session, qPrintable(test::joined(read.diagnostics)));
    QVERIFY2(read.diagnostics.empty(), qPrintable(test::joined(read.diagnostics)));
    QCOMPARE(read.version, 1);
    const auto &l = std::get<LlmWorkload>(read.session->points[0].workload->model);
    QCOMPARE(l.model, test::builtinModel("Llama-2-7B"));
    QCOMPARE(l.spec, test::llmStep(LlmPhase::Decode, 1024, 4));
    QCOMPARE(l.operatorKind, std::string("QKV projection"));
}

void TestSessionWorkload::refusesBadWorkloads_data()
{
    QTest::addColumn<std::string>("text");
    QTest::addColumn<QString>("message");
    const QString at = "s.json: points[0].workload.";
    QTest::newRow("tp zero") << editedLlm([](Json &w) { w["tp"] = 0; })
                             << at + "tp: expected a positive integer, found 0";
    QTest::newRow("ep negative") << editedLlm([](Json &w) { w["ep"] = -2; })
                                 << at + "ep: expected a positive integer, found -2";
    QTest::newRow("pp a string") << editedLlm([](Json &w) { w["pp"] = "4"; })
                                 << at + "pp: expected a positive integer, found \"4\"";
    QTest::newRow("experts negative")
        << editedLlm([](Json &w) { w["model"]["experts"] = -8; })
        << at + "model.experts: expected a non-negative integer, found -8";
    QTest::newRow("kvCacheDim fractional")
        << editedLlm([](Json &w) { w["model"]["kvCacheDim"] = 1.5; })
        << at + "model.kvCacheDim: expected a non-negative integer, found 1.5";
    QTest::newRow("experts without experts per token")
        << editedLlm([](Json &w) { w["model"]["experts"] = 8; })
        << at
            + "model: a mixture of experts (8 experts) needs the experts per token (the "
              "routed experts each token uses)";
    QTest::newRow("more experts per token than experts") << editedLlm([](Json &w) {
        w["model"]["experts"] = 8;
        w["model"]["expertsPerToken"] = 9;
    }) << at + "model: the experts per token (9) must not exceed the experts (8)";
    QTest::newRow("as many dense layers as layers") << editedLlm([](Json &w) {
        w["model"]["experts"] = 8;
        w["model"]["expertsPerToken"] = 2;
        w["model"]["denseLayers"] = 32;
    }) << at + "model: the dense layers (32) must be fewer than the layers (32)";
    QTest::newRow("shared experts of a dense model")
        << editedLlm([](Json &w) { w["model"]["sharedExperts"] = 1; })
        << at
            + "model: experts per token, shared experts, MoE FFN size and dense layers need "
              "experts (a mixture of experts)";
    QTest::newRow("scale block without its bytes")
        << editedLlm([](Json &w) { w["scaleBlock"] = 16; })
        << at + "scaleBytes: missing (expected the bytes of a scale with scaleBlock)";
    QTest::newRow("scale bytes without their block")
        << editedLlm([](Json &w) { w["scaleBytes"] = 1; })
        << at + "scaleBlock: missing (expected the elements a scale covers with scaleBytes)";
    QTest::newRow("scale bytes negative") << editedLlm([](Json &w) {
        w["scaleBlock"] = 16;
        w["scaleBytes"] = -1;
    }) << at + "scaleBytes: expected a non-negative finite number, found -1";
    QTest::newRow("scale block negative") << editedLlm([](Json &w) {
        w["scaleBlock"] = -16;
        w["scaleBytes"] = 1;
    }) << at + "scaleBlock: expected a non-negative integer, found -16";
    QTest::newRow("unknown precision mode")
        << editedLlm([](Json &w) { w["precisionMode"] = "fp3"; })
        << at
            + "precisionMode: unknown precision mode \"fp3\" (known: bf16|fp16|fp8|w8a8|"
              "w8a16|w4a16|nvfp4|mxfp4)";
}

void TestSessionWorkload::refusesBadWorkloads()
{
    QFETCH(std::string, text);
    QFETCH(QString, message);
    const auto read = readSessionJson(text, "s.json");
    const QString all = test::joined(read.diagnostics);
    QVERIFY2(!read.session, qPrintable(all));
    QVERIFY2(all.contains(message), qPrintable(all));
}

// The same heads refused by a model file and by a session, with the same reason.
void TestSessionWorkload::checksHeadsAsModelFilesDo_data()
{
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("kvHeads");
    QTest::addColumn<QString>("reason"); // in both readers' message
    QTest::newRow("kv heads do not divide heads")
        << 32 << 5 << "the query heads (32) must be a multiple of the key/value heads (5)";
    QTest::newRow("more kv heads than heads")
        << 4 << 8 << "the query heads (4) must be a multiple of the key/value heads (8)";
    // Each reader's own check of a count, in its own words (the key as its file spells it).
    QTest::newRow("heads zero") << 0 << 8 << "positive integer, found 0";
    QTest::newRow("kv heads zero") << 32 << 0 << "positive integer, found 0";
    QTest::newRow("heads negative") << -4 << 2 << "positive integer, found -4";
    QTest::newRow("kv heads negative") << 32 << -8 << "positive integer, found -8";
}

void TestSessionWorkload::checksHeadsAsModelFilesDo()
{
    QFETCH(int, heads);
    QFETCH(int, kvHeads);
    QFETCH(QString, reason);
    const std::string file = R"({"format": "ridgepoint-model", "name": "m", "source": "s",
        "hidden_size": 4096, "layers": 2, "head_dim": 128, "ffn_size": 8192, "vocab_size": 1000,
        "heads": )"
        + std::to_string(heads) + ", \"kv_heads\": " + std::to_string(kvHeads) + "}";
    const auto fromFile = readModelConfigJson(file, "m.json");
    QVERIFY(fromFile.models.empty());
    const QString fileMessage = test::joined(fromFile.diagnostics);
    QVERIFY2(fileMessage.contains(reason), qPrintable(fileMessage));

    const auto fromSession = readSessionJson(editedLlm([&](Json &w) {
        w["model"]["heads"] = heads;
        w["model"]["kvHeads"] = kvHeads;
    }),
        "s.json");
    QVERIFY(!fromSession.session);
    const QString sessionMessage = test::joined(fromSession.diagnostics);
    QVERIFY2(sessionMessage.contains(reason), qPrintable(sessionMessage));
    QVERIFY2(
        sessionMessage.startsWith("s.json: points[0].workload.model"), qPrintable(sessionMessage));
}

void TestSessionWorkload::warnsAboutUnknownKeysOfAWorkload()
{
    const auto read = readSessionJson(editedLlm([](Json &w) {
        w["tensorParallel"] = 2;
        w["model"]["numExperts"] = 8;
    }),
        "s.json");
    QVERIFY2(read.session, qPrintable(test::joined(read.diagnostics)));
    QCOMPARE(test::joined(read.diagnostics),
        QString("s.json: warning: points[0].workload: unknown key \"tensorParallel\" ignored "
                "(expected one of kind, model, phase, seq, batch, weights, activations, kv, "
                "fusedAttention, tp, ep, pp, scaleBlock, scaleBytes, precisionMode, operator, "
                "group, sweep)\n"
                "s.json: warning: points[0].workload.model: unknown key \"numExperts\" ignored "
                "(expected one of name, aliases, source, hiddenSize, layers, heads, kvHeads, "
                "headDim, ffnSize, vocabSize, gatedFfn, experts, expertsPerToken, sharedExperts, "
                "moeFfnSize, denseLayers, kvCacheDim)"));
}

QTEST_APPLESS_MAIN(TestSessionWorkload)
#include "tst_session_workload.moc"
