// Every operator of an LLM step, FLOPs and bytes over all layers, for a dense model
// (Llama-2-7B), a grouped-query model (Llama-3-8B) and a mixture of experts (Mixtral-8x7B), in
// prefill and decode, bf16 throughout; plus precision modes, the MoE router and expert
// traffic, and the other MoE models' files. The expected values below are the output of a
// separate Python script that writes each formula of docs/WORKLOADS.md out by hand:
//   T = seq (prefill) or 1 (decode), m = b·T, P = T(T+1)/2 (prefill) or seq (decode),
//   hq = heads·hd, hkv = kv_heads·hd, L layers, s = 2 bytes;
//   embedding     m·h FLOPs, 4m + m·h·s + m·h·s bytes
//   norms         4·m·h, 2·m·h·s + h·s;  residuals m·h, 3·m·h·s
//   QKV           2·m·h·(hq+2hkv), h(hq+2hkv)·s + m·h·s + m(hq+2hkv)·s
//   rotary        3·m·(hq+hkv), 2·m·(hq+hkv)·s + m·hd·s
//   KV write      m·2hkv, m·2hkv·s (read) + m·2hkv·s (cache)
//   score, value  2·b·heads·P·hd each; m·hq·s + b·seq·hkv·s + b·heads·P·s each
//   softmax       5·b·heads·P, 2·b·heads·P·s
//   experts       touched = E(1 − (1 − k/E)^m), rows r = m·k: up/gate/down 2·r·in·out,
//                 touched·in·out·s + r·in·s + r·out·s; activation 5·r·f, 3·r·f·s
//   router        2·m·h·E, h·E·s + m·h·s + m·k·(s + 4);  combine 2·k·m·h, k·m·h·s + m·k·s + m·h·s
//   final norm on b rows, LM head 2·b·h·V, h·V·s + b·h·s + b·V·s
#include "core/presets/presets.h"
#include "core/workloads/llm.h"

#include "tests/support/core_test_support.h"

#include <QTest>

#include <map>

using namespace ridgepoint;

namespace {

using test::close;
using test::preset;

ModelConfig model(const std::string &name)
{
    static const std::vector<ModelConfig> models = builtinModels();
    auto found = findModel(models, name);
    if (!found)
        qFatal("%s", found.error().c_str());
    return *found;
}

LlmSpec spec(const QString &phase, qint64 seq, qint64 batch)
{
    LlmSpec s;
    s.phase = *llmPhaseFromName(phase.toStdString());
    s.seq = seq;
    s.batch = batch;
    return s;
}

void add(const char *name, const char *phase, int seq, int batch, const char *kind, double flops,
    double bytes)
{
    QTest::addRow("%s %s %s", name, phase, kind)
        << QString(name) << QString(phase) << qint64(seq) << qint64(batch) << QString(kind) << flops
        << bytes;
}

} // namespace

class TestLlmOperators : public QObject
{
    Q_OBJECT

private slots:
    void everyOperator_data();
    void everyOperator();
    void everyOperatorHasAGroup();
    void expertWeightsCountTheExpertsTouched_data();
    void expertWeightsCountTheExpertsTouched();
    void moeModelFiles_data();
    void moeModelFiles();
    void precisionModes_data();
    void precisionModes();
    void activeParameterRidge();
};

void TestLlmOperators::everyOperator_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("phase");
    QTest::addColumn<qint64>("seq");
    QTest::addColumn<qint64>("batch");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<double>("flops");
    QTest::addColumn<double>("bytes");
    // Llama-2-7B prefill, seq 512, batch 1: operator | FLOPs | bytes
    add("Llama-2-7B", "prefill", 512, 1, "embedding", 2097152.0, 8390656.0);
    add("Llama-2-7B", "prefill", 512, 1, "attention norm", 268435456.0, 268697600.0);
    add("Llama-2-7B", "prefill", 512, 1, "QKV projection", 1649267441664.0, 3758096384.0);
    add("Llama-2-7B", "prefill", 512, 1, "rotary embedding", 402653184.0, 541065216.0);
    add("Llama-2-7B", "prefill", 512, 1, "KV-cache write", 134217728.0, 536870912.0);
    add("Llama-2-7B", "prefill", 512, 1, "attention score", 34426847232.0, 537395200.0);
    add("Llama-2-7B", "prefill", 512, 1, "softmax", 672399360.0, 537919488.0);
    add("Llama-2-7B", "prefill", 512, 1, "attention value", 34426847232.0, 537395200.0);
    add("Llama-2-7B", "prefill", 512, 1, "output projection", 549755813888.0, 1342177280.0);
    add("Llama-2-7B", "prefill", 512, 1, "attention residual", 67108864.0, 402653184.0);
    add("Llama-2-7B", "prefill", 512, 1, "FFN norm", 268435456.0, 268697600.0);
    add("Llama-2-7B", "prefill", 512, 1, "FFN up", 1477468749824.0, 3380609024.0);
    add("Llama-2-7B", "prefill", 512, 1, "FFN gate", 1477468749824.0, 3380609024.0);
    add("Llama-2-7B", "prefill", 512, 1, "FFN activation", 901775360.0, 1082130432.0);
    add("Llama-2-7B", "prefill", 512, 1, "FFN down", 1477468749824.0, 3380609024.0);
    add("Llama-2-7B", "prefill", 512, 1, "FFN residual", 67108864.0, 402653184.0);
    add("Llama-2-7B", "prefill", 512, 1, "final norm", 16384.0, 24576.0);
    add("Llama-2-7B", "prefill", 512, 1, "LM head", 262144000.0, 262216192.0);
    add("Llama-2-7B", "prefill", 512, 1, "whole model", 6703329591296.0, 20628210176.0);
    // Llama-2-7B decode, seq 4096, batch 1: operator | FLOPs | bytes
    add("Llama-2-7B", "decode", 4096, 1, "embedding", 4096.0, 16388.0);
    add("Llama-2-7B", "decode", 4096, 1, "attention norm", 524288.0, 786432.0);
    add("Llama-2-7B", "decode", 4096, 1, "QKV projection", 3221225472.0, 3222274048.0);
    add("Llama-2-7B", "decode", 4096, 1, "rotary embedding", 786432.0, 1056768.0);
    add("Llama-2-7B", "decode", 4096, 1, "KV-cache write", 262144.0, 1048576.0);
    add("Llama-2-7B", "decode", 4096, 1, "attention score", 1073741824.0, 1082392576.0);
    add("Llama-2-7B", "decode", 4096, 1, "softmax", 20971520.0, 16777216.0);
    add("Llama-2-7B", "decode", 4096, 1, "attention value", 1073741824.0, 1082392576.0);
    add("Llama-2-7B", "decode", 4096, 1, "output projection", 1073741824.0, 1074266112.0);
    add("Llama-2-7B", "decode", 4096, 1, "attention residual", 131072.0, 786432.0);
    add("Llama-2-7B", "decode", 4096, 1, "FFN norm", 524288.0, 786432.0);
    add("Llama-2-7B", "decode", 4096, 1, "FFN up", 2885681152.0, 2886647808.0);
    add("Llama-2-7B", "decode", 4096, 1, "FFN gate", 2885681152.0, 2886647808.0);
    add("Llama-2-7B", "decode", 4096, 1, "FFN activation", 1761280.0, 2113536.0);
    add("Llama-2-7B", "decode", 4096, 1, "FFN down", 2885681152.0, 2886647808.0);
    add("Llama-2-7B", "decode", 4096, 1, "FFN residual", 131072.0, 786432.0);
    add("Llama-2-7B", "decode", 4096, 1, "final norm", 16384.0, 24576.0);
    add("Llama-2-7B", "decode", 4096, 1, "LM head", 262144000.0, 262216192.0);
    add("Llama-2-7B", "decode", 4096, 1, "whole model", 15386750976.0, 15407667716.0);
    // Llama-3-8B prefill, seq 512, batch 2: operator | FLOPs | bytes
    add("Llama-3-8B", "prefill", 512, 2, "embedding", 4194304.0, 16781312.0);
    add("Llama-3-8B", "prefill", 512, 2, "attention norm", 536870912.0, 537133056.0);
    add("Llama-3-8B", "prefill", 512, 2, "QKV projection", 1649267441664.0, 2281701376.0);
    add("Llama-3-8B", "prefill", 512, 2, "rotary embedding", 503316480.0, 679477248.0);
    add("Llama-3-8B", "prefill", 512, 2, "KV-cache write", 67108864.0, 268435456.0);
    add("Llama-3-8B", "prefill", 512, 2, "attention score", 68853694464.0, 873463808.0);
    add("Llama-3-8B", "prefill", 512, 2, "softmax", 1344798720.0, 1075838976.0);
    add("Llama-3-8B", "prefill", 512, 2, "attention value", 68853694464.0, 873463808.0);
    add("Llama-3-8B", "prefill", 512, 2, "output projection", 1099511627776.0, 1610612736.0);
    add("Llama-3-8B", "prefill", 512, 2, "attention residual", 134217728.0, 805306368.0);
    add("Llama-3-8B", "prefill", 512, 2, "FFN norm", 536870912.0, 537133056.0);
    add("Llama-3-8B", "prefill", 512, 2, "FFN up", 3848290697216.0, 4966055936.0);
    add("Llama-3-8B", "prefill", 512, 2, "FFN gate", 3848290697216.0, 4966055936.0);
    add("Llama-3-8B", "prefill", 512, 2, "FFN activation", 2348810240.0, 2818572288.0);
    add("Llama-3-8B", "prefill", 512, 2, "FFN down", 3848290697216.0, 4966055936.0);
    add("Llama-3-8B", "prefill", 512, 2, "FFN residual", 134217728.0, 805306368.0);
    add("Llama-3-8B", "prefill", 512, 2, "final norm", 32768.0, 40960.0);
    add("Llama-3-8B", "prefill", 512, 2, "LM head", 2101346304.0, 1051202560.0);
    add("Llama-3-8B", "prefill", 512, 2, "whole model", 14439070334976.0, 29132637184.0);
    // Llama-3-8B decode, seq 4096, batch 8: operator | FLOPs | bytes
    add("Llama-3-8B", "decode", 4096, 8, "embedding", 32768.0, 131104.0);
    add("Llama-3-8B", "decode", 4096, 8, "attention norm", 4194304.0, 4456448.0);
    add("Llama-3-8B", "decode", 4096, 8, "QKV projection", 12884901888.0, 1615855616.0);
    add("Llama-3-8B", "decode", 4096, 8, "rotary embedding", 3932160.0, 5308416.0);
    add("Llama-3-8B", "decode", 4096, 8, "KV-cache write", 524288.0, 2097152.0);
    add("Llama-3-8B", "decode", 4096, 8, "attention score", 8589934592.0, 2216689664.0);
    add("Llama-3-8B", "decode", 4096, 8, "softmax", 167772160.0, 134217728.0);
    add("Llama-3-8B", "decode", 4096, 8, "attention value", 8589934592.0, 2216689664.0);
    add("Llama-3-8B", "decode", 4096, 8, "output projection", 8589934592.0, 1077936128.0);
    add("Llama-3-8B", "decode", 4096, 8, "attention residual", 1048576.0, 6291456.0);
    add("Llama-3-8B", "decode", 4096, 8, "FFN norm", 4194304.0, 4456448.0);
    add("Llama-3-8B", "decode", 4096, 8, "FFN up", 30064771072.0, 3767533568.0);
    add("Llama-3-8B", "decode", 4096, 8, "FFN gate", 30064771072.0, 3767533568.0);
    add("Llama-3-8B", "decode", 4096, 8, "FFN activation", 18350080.0, 22020096.0);
    add("Llama-3-8B", "decode", 4096, 8, "FFN down", 30064771072.0, 3767533568.0);
    add("Llama-3-8B", "decode", 4096, 8, "FFN residual", 1048576.0, 6291456.0);
    add("Llama-3-8B", "decode", 4096, 8, "final norm", 131072.0, 139264.0);
    add("Llama-3-8B", "decode", 4096, 8, "LM head", 8405385216.0, 1052790784.0);
    add("Llama-3-8B", "decode", 4096, 8, "whole model", 137455632384.0, 19667972128.0);
    // Mixtral-8x7B prefill, seq 512, batch 1: operator | FLOPs | bytes
    add("Mixtral-8x7B", "prefill", 512, 1, "embedding", 2097152.0, 8390656.0);
    add("Mixtral-8x7B", "prefill", 512, 1, "attention norm", 268435456.0, 268697600.0);
    add("Mixtral-8x7B", "prefill", 512, 1, "QKV projection", 824633720832.0, 1946157056.0);
    add("Mixtral-8x7B", "prefill", 512, 1, "rotary embedding", 251658240.0, 339738624.0);
    add("Mixtral-8x7B", "prefill", 512, 1, "KV-cache write", 33554432.0, 134217728.0);
    add("Mixtral-8x7B", "prefill", 512, 1, "attention score", 34426847232.0, 436731904.0);
    add("Mixtral-8x7B", "prefill", 512, 1, "softmax", 672399360.0, 537919488.0);
    add("Mixtral-8x7B", "prefill", 512, 1, "attention value", 34426847232.0, 436731904.0);
    add("Mixtral-8x7B", "prefill", 512, 1, "output projection", 549755813888.0, 1342177280.0);
    add("Mixtral-8x7B", "prefill", 512, 1, "attention residual", 67108864.0, 402653184.0);
    add("Mixtral-8x7B", "prefill", 512, 1, "FFN norm", 268435456.0, 268697600.0);
    add("Mixtral-8x7B", "prefill", 512, 1, "router", 1073741824.0, 136511488.0);
    add("Mixtral-8x7B", "prefill", 512, 1, "expert up", 3848290697216.0, 31272730624.0);
    add("Mixtral-8x7B", "prefill", 512, 1, "expert gate", 3848290697216.0, 31272730624.0);
    add("Mixtral-8x7B", "prefill", 512, 1, "expert activation", 2348810240.0, 2818572288.0);
    add("Mixtral-8x7B", "prefill", 512, 1, "expert down", 3848290697216.0, 31272730624.0);
    add("Mixtral-8x7B", "prefill", 512, 1, "expert combine", 268435456.0, 402718720.0);
    add("Mixtral-8x7B", "prefill", 512, 1, "FFN residual", 67108864.0, 402653184.0);
    add("Mixtral-8x7B", "prefill", 512, 1, "final norm", 16384.0, 24576.0);
    add("Mixtral-8x7B", "prefill", 512, 1, "LM head", 262144000.0, 262216192.0);
    add("Mixtral-8x7B", "prefill", 512, 1, "whole model", 12993699266560.0, 103963001344.0);
    // Mixtral-8x7B decode, seq 4096, batch 4: operator | FLOPs | bytes
    add("Mixtral-8x7B", "decode", 4096, 4, "embedding", 16384.0, 65552.0);
    add("Mixtral-8x7B", "decode", 4096, 4, "attention norm", 2097152.0, 2359296.0);
    add("Mixtral-8x7B", "decode", 4096, 4, "QKV projection", 6442450944.0, 1613234176.0);
    add("Mixtral-8x7B", "decode", 4096, 4, "rotary embedding", 1966080.0, 2654208.0);
    add("Mixtral-8x7B", "decode", 4096, 4, "KV-cache write", 262144.0, 1048576.0);
    add("Mixtral-8x7B", "decode", 4096, 4, "attention score", 4294967296.0, 1108344832.0);
    add("Mixtral-8x7B", "decode", 4096, 4, "softmax", 83886080.0, 67108864.0);
    add("Mixtral-8x7B", "decode", 4096, 4, "attention value", 4294967296.0, 1108344832.0);
    add("Mixtral-8x7B", "decode", 4096, 4, "output projection", 4294967296.0, 1075838976.0);
    add("Mixtral-8x7B", "decode", 4096, 4, "attention residual", 524288.0, 3145728.0);
    add("Mixtral-8x7B", "decode", 4096, 4, "FFN norm", 2097152.0, 2359296.0);
    add("Mixtral-8x7B", "decode", 4096, 4, "router", 8388608.0, 3147264.0);
    add("Mixtral-8x7B", "decode", 4096, 4, "expert up", 30064771072.0, 20561526784.0);
    add("Mixtral-8x7B", "decode", 4096, 4, "expert gate", 30064771072.0, 20561526784.0);
    add("Mixtral-8x7B", "decode", 4096, 4, "expert activation", 18350080.0, 22020096.0);
    add("Mixtral-8x7B", "decode", 4096, 4, "expert down", 30064771072.0, 20561526784.0);
    add("Mixtral-8x7B", "decode", 4096, 4, "expert combine", 2097152.0, 3146240.0);
    add("Mixtral-8x7B", "decode", 4096, 4, "FFN residual", 524288.0, 3145728.0);
    add("Mixtral-8x7B", "decode", 4096, 4, "final norm", 65536.0, 73728.0);
    add("Mixtral-8x7B", "decode", 4096, 4, "LM head", 1048576000.0, 262432768.0);
    add("Mixtral-8x7B", "decode", 4096, 4, "whole model", 110690516992.0, 66963050512.0);
}

void TestLlmOperators::everyOperator()
{
    QFETCH(QString, name);
    QFETCH(QString, phase);
    QFETCH(qint64, seq);
    QFETCH(qint64, batch);
    QFETCH(QString, kind);
    QFETCH(double, flops);
    QFETCH(double, bytes);
    const auto r = modelLlm(model(name.toStdString()), spec(phase, seq, batch), preset("H100"));
    QVERIFY2(r, r ? "" : r.error().c_str());
    if (kind == "whole model") {
        QVERIFY2(close(r->total.point.flops, flops, 1e-12),
            qPrintable(QString::number(r->total.point.flops, 'g', 17)));
        QVERIFY2(close(r->total.point.bytes.front().bytes, bytes, 1e-12),
            qPrintable(QString::number(r->total.point.bytes.front().bytes, 'g', 17)));
        return;
    }
    std::map<std::string, const AnalyzedPoint *> ops;
    for (const auto &p : r->operators)
        ops[p.point.name] = &p;
    QVERIFY(ops.contains(kind.toStdString()));
    const auto &p = *ops.at(kind.toStdString());
    QVERIFY2(
        close(p.point.flops, flops, 1e-12), qPrintable(QString::number(p.point.flops, 'g', 17)));
    QVERIFY2(close(p.point.bytes.front().bytes, bytes, 1e-12),
        qPrintable(QString::number(p.point.bytes.front().bytes, 'g', 17)));
}

void TestLlmOperators::everyOperatorHasAGroup()
{
    const std::map<std::string, std::string> groups { { "embedding", "embedding" },
        { "attention norm", "norm" }, { "QKV projection", "attention" },
        { "rotary embedding", "attention" }, { "KV-cache write", "attention" },
        { "attention score", "attention" }, { "softmax", "attention" },
        { "attention value", "attention" }, { "output projection", "attention" },
        { "attention residual", "elementwise" }, { "FFN norm", "norm" }, { "FFN up", "ffn" },
        { "FFN gate", "ffn" }, { "FFN activation", "ffn" }, { "FFN down", "ffn" },
        { "router", "router" }, { "shared expert up", "ffn" }, { "shared expert gate", "ffn" },
        { "shared expert activation", "ffn" }, { "shared expert down", "ffn" },
        { "expert up", "expert" }, { "expert gate", "expert" }, { "expert activation", "expert" },
        { "expert down", "expert" }, { "expert combine", "elementwise" },
        { "FFN residual", "elementwise" }, { "final norm", "norm" }, { "LM head", "head" } };
    // DeepSeek-V3 has every kind: dense first layers, shared and routed experts.
    const auto ops = llmOperators(model("DeepSeek-V3"), spec("decode", 1024, 4));
    QVERIFY(ops);
    QCOMPARE(ops->size(), groups.size());
    for (const auto &op : *ops) {
        QVERIFY2(groups.contains(op.kind), op.kind.c_str());
        QCOMPARE(op.group, groups.at(op.kind));
    }
    // 3 dense layers, 58 MoE layers.
    for (const auto &op : *ops) {
        if (op.kind == "FFN up")
            QCOMPARE(op.count, std::int64_t(3));
        if (op.kind == "expert up" || op.kind == "shared expert up" || op.kind == "router")
            QCOMPARE(op.count, std::int64_t(58));
    }
    // With flash attention the softmax folds into the score: no softmax point, its FLOPs added.
    LlmSpec fused = spec("prefill", 256, 1);
    fused.fusedAttention = true;
    const auto f = llmOperators(model("Llama-2-7B"), fused);
    const auto u = llmOperators(model("Llama-2-7B"), spec("prefill", 256, 1));
    QVERIFY(f && u);
    QCOMPARE(f->size() + 1, u->size());
    const double pairs = 256.0 * 257.0 / 2.0;
    // score 2·32·P·128 plus softmax 5·32·P; bytes drop the 32·P·2 score write.
    QCOMPARE((*f)[5].kind, std::string("attention score"));
    QCOMPARE((*f)[5].flopsPerLayer, 2.0 * 32 * pairs * 128 + 5.0 * 32 * pairs);
    QCOMPARE((*u)[5].bytesPerLayer - (*f)[5].bytesPerLayer, 32 * pairs * 2);
}

void TestLlmOperators::expertWeightsCountTheExpertsTouched_data()
{
    QTest::addColumn<qint64>("tokens");
    QTest::addColumn<double>("touched");
    // Mixtral, E = 8, k = 2: 8·(1 − 0.75^T). T=1: 2; T=2: 8·(1 − 0.5625) = 3.5;
    // T=4: 8·(1 − 0.31640625) = 5.46875; T=64: 0.75^64 = 1.0090689833e-8.
    QTest::newRow("1 token") << qint64(1) << 2.0;
    QTest::newRow("2 tokens") << qint64(2) << 3.5;
    QTest::newRow("4 tokens") << qint64(4) << 5.46875;
    QTest::newRow("64 tokens") << qint64(64) << 8.0 * (1.0 - 1.0090689833159348e-8);
}

void TestLlmOperators::expertWeightsCountTheExpertsTouched()
{
    QFETCH(qint64, tokens);
    QFETCH(double, touched);
    const ModelConfig m = model("Mixtral-8x7B");
    QVERIFY(close(expertsTouched(m, double(tokens)), touched, 1e-9));
    const auto ops = llmOperators(m, spec("decode", 100, tokens));
    QVERIFY(ops);
    for (const auto &op : *ops) {
        if (op.kind == "expert up") // 4096 × 14336 bf16 per expert touched
            QVERIFY(close(op.weightBytesPerLayer, touched * 4096.0 * 14336.0 * 2.0, 1e-9));
        if (op.kind == "expert down") // FLOPs: T·k token visits
            QCOMPARE(op.flopsPerLayer, 2.0 * double(tokens) * 2.0 * 14336.0 * 4096.0);
    }
}

void TestLlmOperators::moeModelFiles_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<qint64>("experts");
    QTest::addColumn<qint64>("perToken");
    QTest::addColumn<qint64>("shared");
    QTest::addColumn<qint64>("moeFfn");
    QTest::addColumn<qint64>("dense");
    QTest::addColumn<double>("totalB");
    QTest::addColumn<double>("activeB");
    // Parameters (a Python check of these sums printed the same integers), embedding and LM
    // head untied, norm gains left out:
    // Mixtral: attention 4096·(4096 + 2·1024) + 4096·4096 = 41943040; expert 3·4096·14336 =
    //   176160768; router 4096·8 = 32768; 32·(41943040 + 32768 + 8·176160768) + 2·4096·32000
    //   = 46702526464; active (2 experts): 32·(41943040 + 32768 + 2·176160768) + 262144000
    //   = 12879659008.
    // Qwen3-30B-A3B: attention 2048·(4096 + 1024) + 4096·2048 = 18874368; expert 3·2048·768 =
    //   4718592; router 2048·128 = 262144; 48·(18874368 + 262144 + 128·4718592)
    //   + 2·2048·151936 = 30531911680; active (8): 48·(19136512 + 8·4718592) + 622329856
    //   = 3352821760.
    // DeepSeek-V3 (MLA as MHA 128×128): attention 7168·3·16384 + 16384·7168 = 469762048;
    //   dense FFN 3·7168·18432 = 396361728; expert 3·7168·2048 = 44040192; router 7168·256 =
    //   1835008; 61·469762048 + 3·396361728 + 58·(1835008 + 257·44040192) + 2·7168·129280
    //   = 688267460608; active (1 shared + 8 routed): 58·(1835008 + 9·44040192) + the rest
    //   = 54793338880.
    QTest::newRow("Mixtral-8x7B") << "Mixtral-8x7B" << qint64(8) << qint64(2) << qint64(0)
                                  << qint64(0) << qint64(0) << 46.702526464 << 12.879659008;
    QTest::newRow("Qwen3-30B-A3B") << "Qwen3-30B-A3B" << qint64(128) << qint64(8) << qint64(0)
                                   << qint64(768) << qint64(0) << 30.531911680 << 3.352821760;
    QTest::newRow("DeepSeek-V3") << "DeepSeek-V3" << qint64(256) << qint64(8) << qint64(1)
                                 << qint64(2048) << qint64(3) << 688.267460608 << 54.793338880;
}

void TestLlmOperators::moeModelFiles()
{
    QFETCH(QString, name);
    QFETCH(qint64, experts);
    QFETCH(qint64, perToken);
    QFETCH(qint64, shared);
    QFETCH(qint64, moeFfn);
    QFETCH(qint64, dense);
    QFETCH(double, totalB);
    QFETCH(double, activeB);
    const ModelConfig m = model(name.toStdString());
    QCOMPARE(m.experts, experts);
    QCOMPARE(m.expertsPerToken, perToken);
    QCOMPARE(m.sharedExperts, shared);
    QCOMPARE(m.moeFfnSize, moeFfn);
    QCOMPARE(m.denseLayers, dense);
    QVERIFY2(close(llmTotalParameters(m) / 1e9, totalB, 1e-12),
        qPrintable(QString::number(llmTotalParameters(m), 'g', 17)));
    QVERIFY2(close(llmActiveParameters(m) / 1e9, activeB, 1e-12),
        qPrintable(QString::number(llmActiveParameters(m), 'g', 17)));
}

void TestLlmOperators::precisionModes_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<QString>("hardware");
    QTest::addColumn<double>("weightBytes");
    QTest::addColumn<double>("activationBytes");
    QTest::addColumn<QString>("roof");
    // Block scales: NVFP4 0.5 + 1/16 = 0.5625 B, MXFP4 0.5 + 1/32 = 0.53125 B, w4a16 groups
    // of 128 with a 2-byte scale 0.5 + 2/128 = 0.515625 B.
    QTest::newRow("fp8") << "fp8"
                         << "H100" << 1.0 << 1.0 << "FP8 tensor";
    QTest::newRow("w8a8") << "w8a8"
                          << "H100" << 1.0 << 1.0 << "INT8 tensor";
    QTest::newRow("w8a16") << "w8a16"
                           << "H100" << 1.0 << 2.0 << "BF16 tensor";
    QTest::newRow("w4a16") << "w4a16"
                           << "H100" << 0.515625 << 2.0 << "BF16 tensor";
    QTest::newRow("nvfp4") << "nvfp4"
                           << "B200" << 0.5625 << 0.5625 << "FP4 tensor";
    QTest::newRow("mxfp4") << "mxfp4"
                           << "B200" << 0.53125 << 0.53125 << "FP4 tensor";
}

void TestLlmOperators::precisionModes()
{
    QFETCH(QString, mode);
    QFETCH(QString, hardware);
    QFETCH(double, weightBytes);
    QFETCH(double, activationBytes);
    QFETCH(QString, roof);
    const auto s = withLlmPrecisionMode(spec("decode", 1024, 1), mode.toStdString());
    QVERIFY(s);
    QCOMPARE(llmWeightBytes(*s), weightBytes);
    QCOMPARE(llmActivationBytes(*s), activationBytes);
    const auto r = modelLlm(model("Llama-2-7B"), *s, preset(hardware.toUtf8().constData()));
    QVERIFY2(r, r ? "" : r.error().c_str());
    QCOMPARE(QString::fromStdString(r->computeCeiling), roof);
    // FFN down at batch 1: 2·11008·4096 FLOPs over 11008·4096·sw + (11008 + 4096)·sa bytes.
    for (const auto &p : r->operators) {
        if (p.point.name == "FFN down")
            QVERIFY(close(p.point.bytes.front().bytes,
                32.0 * (11008.0 * 4096.0 * weightBytes + (11008.0 + 4096.0) * activationBytes)));
    }
    const auto unknown = withLlmPrecisionMode({}, "fp3");
    QVERIFY(!unknown);
    QVERIFY(QString::fromStdString(unknown.error()).contains("nvfp4"));
}

void TestLlmOperators::activeParameterRidge()
{
    // Mixtral decode on the H100 in bf16: ridge π/β of the BF16 tensor roof over HBM. The
    // experts' up, gate and down at T tokens: 3·2·T·k·h·f FLOPs over
    // 3·(touched(T)·h·f·2 + T·k·(h + f)·2) bytes; the dense FFN of the active shape reads k
    // experts' weights. Both thresholds are the smallest T whose intensity reaches the ridge.
    const ModelConfig m = model("Mixtral-8x7B");
    const auto r = modelLlm(m, spec("decode", 4096, 1), preset("H100"));
    QVERIFY(r && r->expertCriticalTokens && r->denseCriticalTokens);
    const double h = 4096, f = 14336, k = 2;
    auto intensity = [&](double t, bool dense) {
        const double touched = dense ? k : expertsTouched(m, t);
        return 2.0 * t * k * h * f / (touched * h * f * 2.0 + t * k * (h + f) * 2.0);
    };
    const double tc = *r->expertCriticalTokens, td = *r->denseCriticalTokens;
    QVERIFY(intensity(tc, false) >= r->ridge && intensity(tc - 1, false) < r->ridge);
    QVERIFY(intensity(td, true) >= r->ridge && intensity(td - 1, true) < r->ridge);
    // At large T every expert is touched: about E/k = 4 times the dense threshold.
    QVERIFY2(tc > 3.5 * td && tc < 4.5 * td, qPrintable(QString::number(tc / td)));
    QVERIFY(!modelLlm(model("Llama-2-7B"), spec("decode", 4096, 1), preset("H100"))
                 ->expertCriticalTokens);
}

QTEST_GUILESS_MAIN(TestLlmOperators)
#include "tst_llm_operators.moc"
