// Vidur's per-operator CSV opened as points (docs/FORMATS.md §11.5): detected by content, one
// point per operator and row with the model FLOPs and bytes of docs/MODEL.md §15.1 and the
// measured median, named by the file's own operator names, tokens and tp. The expected FLOPs and
// bytes are worked out here by hand from the GEMM formula: 2·M·N·K FLOPs, (M·K + K·N + M·N)·2
// bytes.
#include "core/io/readers.h"

#include "tests/support/reader_test_support.h"

#include <QTest>

using namespace ridgepoint;

namespace {

// A layer of 4 heads (4 key/value heads) of 16, hidden 64, FFN 256, gated: at tp = 2 one rank
// has FFN 128 and 2 heads (32 wide). attn_prefill has no model of its work.
constexpr std::string_view kFile
    = "time_stats.attn_post_proj.median,time_stats.mlp_down_proj.median,"
      "time_stats.attn_prefill.median,n_head,n_kv_head,n_embd,n_expanded_embd,vocab_size,"
      "use_gated_mlp,num_tokens,num_tensor_parallel_workers\n"
      "0.25,0.5,0.75,4,4,64,256,1000,True,8,2\n"
      "0.125,1.5,0.75,4,4,64,256,1000,True,16,1\n";

} // namespace

class TestVidurPoints : public QObject
{
    Q_OBJECT

private slots:
    void isDetectedByContent();
    void placesEachOperatorWithItsModelWork_data();
    void placesEachOperatorWithItsModelWork();
    void saysWhichRowsHaveNoModel();
    void readsTheFixture();
};

void TestVidurPoints::isDetectedByContent()
{
    QCOMPARE(detectFileFormat(kFile), std::optional(FileFormat::VidurOperators));
    // The collective CSV (num_workers, size) is not a per-operator file.
    QVERIFY(detectFileFormat("time_stats.all_reduce.median,num_workers,size,collective\n1,2,3,x\n")
        != std::optional(FileFormat::VidurOperators));
}

void TestVidurPoints::placesEachOperatorWithItsModelWork_data()
{
    QTest::addColumn<int>("index");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("group");
    QTest::addColumn<double>("flops");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<double>("seconds");
    QTest::addColumn<int>("line");
    // attn_post_proj, 8 tokens, tp 2: M 8, K 2·16 = 32, N 64: 2·8·64·32 = 32768 FLOPs,
    // (8·32 + 32·64 + 8·64)·2 = (256 + 2048 + 512)·2 = 5632 bytes; 0.25 ms.
    QTest::newRow("attn_post_proj tp 2") << 0 << "attn_post_proj 8 tok tp 2"
                                         << "attn_post_proj" << 32768.0 << 5632.0 << 0.25e-3 << 2;
    // mlp_down_proj, 8 tokens, tp 2: M 8, K 256/2 = 128, N 64: 2·8·64·128 = 131072 FLOPs,
    // (1024 + 8192 + 512)·2 = 19456 bytes; 0.5 ms.
    QTest::newRow("mlp_down_proj tp 2") << 1 << "mlp_down_proj 8 tok tp 2"
                                        << "mlp_down_proj" << 131072.0 << 19456.0 << 0.5e-3 << 2;
    // attn_post_proj, 16 tokens, tp 1: M 16, K 64, N 64: 2·16·64·64 = 131072 FLOPs,
    // (1024 + 4096 + 1024)·2 = 12288 bytes; 0.125 ms.
    QTest::newRow("attn_post_proj tp 1")
        << 2 << "attn_post_proj 16 tok tp 1"
        << "attn_post_proj" << 131072.0 << 12288.0 << 0.125e-3 << 3;
    // mlp_down_proj, 16 tokens, tp 1: M 16, K 256, N 64: 2·16·64·256 = 524288 FLOPs,
    // (4096 + 16384 + 1024)·2 = 43008 bytes; 1.5 ms.
    QTest::newRow("mlp_down_proj tp 1") << 3 << "mlp_down_proj 16 tok tp 1"
                                        << "mlp_down_proj" << 524288.0 << 43008.0 << 1.5e-3 << 3;
}

void TestVidurPoints::placesEachOperatorWithItsModelWork()
{
    QFETCH(int, index);
    QFETCH(QString, name);
    QFETCH(QString, group);
    QFETCH(double, flops);
    QFETCH(double, bytes);
    QFETCH(double, seconds);
    QFETCH(int, line);
    const auto read = readPointsFile(kFile, "mlp.csv");
    QCOMPARE(read.format, std::optional(FileFormat::VidurOperators));
    QCOMPARE(read.points.points.size(), std::size_t { 4 });
    const KernelPoint &p = read.points.points.at(static_cast<std::size_t>(index));
    QCOMPARE(QString::fromStdString(p.name), name);
    QCOMPARE(QString::fromStdString(p.group), group);
    QCOMPARE(p.flops, flops);
    QCOMPARE(p.bytes.size(), std::size_t { 1 });
    QVERIFY(!p.bytes[0].level);
    QCOMPARE(p.bytes[0].bytes, bytes);
    QVERIFY(p.seconds);
    QVERIFY(std::abs(*p.seconds - seconds) <= 1e-12 * seconds);
    QCOMPARE(p.precision, std::optional(Precision::BF16));
    QCOMPARE(p.source.line, line);
}

void TestVidurPoints::saysWhichRowsHaveNoModel()
{
    const auto read = readPointsFile(kFile, "mlp.csv");
    // attn_prefill on both rows: one warning at its first row, counting them, never a silent
    // drop.
    QCOMPARE(read.points.diagnostics.size(), std::size_t { 1 });
    const Diagnostic &d = read.points.diagnostics.front();
    QCOMPARE(d.severity, Severity::Warning);
    QCOMPARE(d.line, 2);
    QVERIFY2(d.message.starts_with("attn_prefill: 2 rows not placed: no model of operator"),
        d.message.c_str());
    QCOMPARE(read.points.rowsRead, 2);
    QCOMPARE(read.points.rowsSkipped, 0);
}

void TestVidurPoints::readsTheFixture()
{
    // Vidur's H100 Llama-2-7B file: 1044 rows of 10 operators, every one with a model.
    const auto read = readPointsFile(
        test::readTestData("measured/vidur/h100_llama-2-7b_mlp.csv"), "h100_llama-2-7b_mlp.csv");
    QCOMPARE(read.format, std::optional(FileFormat::VidurOperators));
    QCOMPARE(read.points.points.size(), std::size_t { 10440 });
    QVERIFY(read.points.diagnostics.empty());
}

QTEST_APPLESS_MAIN(TestVidurPoints)
#include "tst_vidurpoints.moc"
