// The measured-runs readers: Vidur's operator and collective CSVs (the fixtures in
// tests/data/measured/vidur/), nccl-tests output (and rccl-tests', tests/data/measured/rccl/) and
// the plain measured-operator CSV, with their errors. The FLOPs and bytes expected below are worked
// by hand from the layer's dimensions (h = 4096, 32 heads of 128, FFN 11008, gated, 2-byte types; m
// tokens, tp ranks):
//   mlp_up_proj at m = 4096, tp = 1: N = 2·11008 = 22016; 2·m·h·N = 738 734 374 912 FLOPs;
//     (h·N + m·h + m·N)·2 = (90 177 536 + 16 777 216 + 90 177 536)·2 = 394 264 576 B
//   attn_pre_proj: N = 3·4096 = 12288; 2·4096·4096·12288 = 412 316 860 416 FLOPs;
//     (50 331 648 + 16 777 216 + 50 331 648)·2 = 234 881 024 B
//   input_layernorm: 4·m·h = 67 108 864 FLOPs; (2·m·h + h)·2 = 67 117 056 B
//   attn_rope: r = m·(4096 + 4096) = 33 554 432; 3r = 100 663 296 FLOPs;
//     2r·2 + m·128·2 = 135 266 304 B
//   mlp_act: e = m·11008 = 45 088 768; 5e = 225 443 840 FLOPs; 3e·2 = 270 532 608 B
//   add: m·h = 16 777 216 FLOPs; 3·m·h·2 = 100 663 296 B
//   emb: m·h = 16 777 216 FLOPs; 4m + 2·m·h·2 = 67 125 248 B
//   mlp_down_proj at m = 1, tp = 8: K = 11008/8 = 1376, N = 4096; 2·1376·4096 = 11 272 192
//     FLOPs; (1376·4096 + 1376 + 4096)·2 = 11 283 136 B
#include "core/calibrate/measured.h"
#include "core/io/file_io.h"

#include "tests/support/core_test_support.h"
#include "tests/support/testpaths.h"

#include <QTest>

#include <algorithm>

using namespace ridgepoint;

namespace {

const std::string kMeasured = test::sourceFile("tests/data/measured/");

// `name` in tests/data/measured/vidur/, or a path under tests/data/measured/.
MeasuredReadResult readFixture(const std::string &name)
{
    const std::string path = name.find('/') == std::string::npos ? "vidur/" + name : name;
    const auto text = readTextFile(kMeasured + path);
    if (!text)
        qFatal("%s", text.error().c_str());
    return readMeasuredRuns(*text, name);
}

const MeasuredRow *findRow(const std::vector<MeasuredRow> &rows, const std::string &op,
    std::int64_t tokens, std::int64_t tp)
{
    for (const MeasuredRow &row : rows) {
        if (row.op == op && row.tokens == tokens && row.tp == tp)
            return &row;
    }
    return nullptr;
}

int count(const std::vector<Diagnostic> &diagnostics, Severity severity)
{
    return static_cast<int>(std::count_if(diagnostics.begin(), diagnostics.end(),
        [&](const Diagnostic &d) { return d.severity == severity; }));
}

// A hand-written all_reduce_perf run on two nodes of two GPUs: a row with #wrong, a size
// printed twice, validation off in the last.
const char *kNccl
    = "# nThread 1 nGpus 1 minBytes 8 maxBytes 32 step: 2(factor) warmup iters: 5 iters: 20 "
      "agg iters: 1 validation: 1 graph: 0\n"
      "#\n"
      "# Using devices\n"
      "#  Rank  0 Group  0 Pid     11 on      nodeA device  0 [0x07] NVIDIA H100 80GB HBM3\n"
      "#  Rank  1 Group  0 Pid     12 on      nodeA device  1 [0x0a] NVIDIA H100 80GB HBM3\n"
      "#  Rank  2 Group  0 Pid     13 on      nodeB device  0 [0x07] NVIDIA H100 80GB HBM3\n"
      "#  Rank  3 Group  0 Pid     14 on      nodeB device  1 [0x0a] NVIDIA H100 80GB HBM3\n"
      "#\n"
      "#                                                              out-of-place              "
      "         in-place\n"
      "#       size         count      type   redop    root     time   algbw   busbw #wrong     "
      "time   algbw   busbw #wrong\n"
      "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            "
      "(us)  (GB/s)  (GB/s)\n"
      "           8             2     float     sum      -1    20.50    0.00    0.00      0    "
      "20.10    0.00    0.00      0\n"
      "          16             4     float     sum      -1    21.00    0.00    0.00      2    "
      "20.30    0.00    0.00      0\n"
      "          16             4     float     sum      -1    21.00    0.00    0.00      0    "
      "20.30    0.00    0.00      0\n"
      "          32             8     float     sum      -1    21.40    0.00    0.00    N/A    "
      "20.90    0.00    0.00    N/A\n"
      "# Out of bounds values : 0 OK\n"
      "# Avg bus bandwidth    : 0.00\n";

} // namespace

class TestMeasuredReaders : public QObject
{
    Q_OBJECT

private slots:
    void vidurOperators_data();
    void vidurOperators();
    void vidurCollectives();
    void ncclTests();
    void rcclTestsRun();
    void plainCsv();
    void errors_data();
    void errors();
};

void TestMeasuredReaders::vidurOperators_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("op");
    QTest::addColumn<qint64>("tokens");
    QTest::addColumn<qint64>("tp");
    QTest::addColumn<double>("flops");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<int>("kind");
    const int gemm = int(OperatorClass::Gemm);
    const int elementwise = int(OperatorClass::Elementwise);
    const QString h100 = "h100_llama-2-7b_mlp.csv";
    QTest::newRow("up+gate") << h100 << "mlp_up_proj" << qint64(4096) << qint64(1) << 738734374912.0
                             << 394264576.0 << gemm;
    QTest::newRow("qkv") << h100 << "attn_pre_proj" << qint64(4096) << qint64(1) << 412316860416.0
                         << 234881024.0 << gemm;
    QTest::newRow("norm") << h100 << "input_layernorm" << qint64(4096) << qint64(1) << 67108864.0
                          << 67117056.0 << elementwise;
    QTest::newRow("rope") << h100 << "attn_rope" << qint64(4096) << qint64(1) << 100663296.0
                          << 135266304.0 << elementwise;
    QTest::newRow("act") << h100 << "mlp_act" << qint64(4096) << qint64(1) << 225443840.0
                         << 270532608.0 << elementwise;
    QTest::newRow("add") << h100 << "add" << qint64(4096) << qint64(1) << 16777216.0 << 100663296.0
                         << elementwise;
    QTest::newRow("emb") << h100 << "emb" << qint64(4096) << qint64(1) << 16777216.0 << 67125248.0
                         << elementwise;
    QTest::newRow("down tp8") << "a100_llama-2-7b_mlp.csv"
                              << "mlp_down_proj" << qint64(1) << qint64(8) << 11272192.0
                              << 11283136.0 << gemm;
}

void TestMeasuredReaders::vidurOperators()
{
    QFETCH(QString, file);
    QFETCH(QString, op);
    QFETCH(qint64, tokens);
    QFETCH(qint64, tp);
    QFETCH(double, flops);
    QFETCH(double, bytes);
    QFETCH(int, kind);
    const auto read = readFixture(file.toStdString());
    QCOMPARE(count(read.diagnostics, Severity::Error), 0);
    QCOMPARE(read.rows.size(), std::size_t(1044 * 10)); // 1044 lines of ten operators
    const MeasuredRow *row = findRow(read.rows, op.toStdString(), tokens, tp);
    QVERIFY(row);
    QCOMPARE(row->flops, flops);
    QCOMPARE(row->bytes, bytes);
    QCOMPARE(int(row->kind), kind);
    QVERIFY(row->excluded.empty());
    QVERIFY(row->seconds > 0.0);
}

void TestMeasuredReaders::vidurCollectives()
{
    const auto read = readFixture("a100_dgx_all_reduce.csv");
    QCOMPARE(count(read.diagnostics, Severity::Error), 0);
    // 16 777 216 bytes twice in each of the seven layouts: kept, with a warning each.
    QCOMPARE(count(read.diagnostics, Severity::Warning), 7);
    QCOMPARE(read.rows.size(), std::size_t(6958));
    const MeasuredRow &first = read.rows.front();
    QCOMPARE(first.line, 2);
    QCOMPARE(first.op, std::string("all_reduce"));
    QCOMPARE(first.messageBytes, 2048.0);
    QCOMPARE(first.ranks, std::int64_t(2));
    QCOMPARE(first.ranksPerNode, std::int64_t(1));
    QVERIFY(test::close(first.seconds, 0.043e-3));
    QVERIFY(first.isCollective());
}

void TestMeasuredReaders::ncclTests()
{
    const auto read = readMeasuredRuns(kNccl, "runs/all_reduce_perf.txt");
    QCOMPARE(read.rows.size(), std::size_t(4));
    for (const MeasuredRow &row : read.rows) {
        QCOMPARE(row.op, std::string("all_reduce"));
        QCOMPARE(row.ranks, std::int64_t(4));
        QCOMPARE(row.ranksPerNode, std::int64_t(2)); // two hosts
    }
    QCOMPARE(read.rows[0].messageBytes, 8.0);
    QVERIFY(test::close(read.rows[0].seconds, 20.5e-6));
    QVERIFY(read.rows[0].excluded.empty());
    QVERIFY(read.rows[1].excluded.find("#wrong = 2") != std::string::npos);
    QVERIFY(read.rows[2].excluded.find("repeated") != std::string::npos);
    QVERIFY(read.rows[3].excluded.empty()); // N/A: validation off, not wrong
    QCOMPARE(count(read.diagnostics, Severity::Error), 1);
    const auto error = std::find_if(read.diagnostics.begin(), read.diagnostics.end(),
        [](const Diagnostic &d) { return d.severity == Severity::Error; });
    QCOMPARE(error->line, 14);
    QCOMPARE(error->column, 11);
}

// A real run: rccl-tests' all_reduce_perf on eight MI300X in one node, 8 B to 8 GiB.
void TestMeasuredReaders::rcclTestsRun()
{
    const auto read = readFixture("rccl/all_reduce_perf_mi300x.txt");
    QCOMPARE(count(read.diagnostics, Severity::Error), 0);
    // "rccl-tests: Version develop:ae3e635" before the column header: skipped, said once.
    QCOMPARE(count(read.diagnostics, Severity::Warning), 1);
    QCOMPARE(read.diagnostics.front().line, 3);
    QCOMPARE(read.rows.size(), std::size_t(31));
    double size = 8.0;
    for (const MeasuredRow &row : read.rows) {
        QCOMPARE(row.op, std::string("all_reduce"));
        QCOMPARE(row.ranks, std::int64_t(8));
        QCOMPARE(row.ranksPerNode, std::int64_t(8)); // one host
        QCOMPARE(row.messageBytes, size);
        QVERIFY(row.excluded.empty());
        size *= 2.0;
    }
    QCOMPARE(read.rows.front().line, 16);
    QVERIFY(test::close(read.rows.front().seconds, 34.13e-6)); // out-of-place, not in-place
    QVERIFY(test::close(read.rows.back().seconds, 47488e-6));
}

void TestMeasuredReaders::plainCsv()
{
    const char *text = "# measured on one GPU\n"
                       "operator,kind,dtype,seconds,m,n,k,flops,bytes,message_bytes,ranks\n"
                       "qkv,gemm,bf16,0.001,128,12288,4096,,,,\n"
                       "norm,elementwise,fp16,2e-5,,,,1000,3000,,\n"
                       "ar,collective,bf16,5e-5,,,,,,1048576,8\n";
    const auto read = readMeasuredRuns(text, "plain.csv");
    QVERIFY(read.diagnostics.empty());
    QCOMPARE(read.rows.size(), std::size_t(3));
    // 2·128·12288·4096 and (128·4096 + 4096·12288 + 128·12288)·2.
    QCOMPARE(read.rows[0].flops, 12884901888.0);
    QCOMPARE(read.rows[0].bytes, 104857600.0);
    QCOMPARE(read.rows[0].line, 3);
    QCOMPARE(read.rows[1].flops, 1000.0);
    QVERIFY(read.rows[1].dtype == Precision::FP16);
    QCOMPARE(read.rows[2].messageBytes, 1048576.0);
    QCOMPARE(read.rows[2].ranksPerNode, std::int64_t(8)); // not given: all in one node
}

void TestMeasuredReaders::errors_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("message");
    QTest::newRow("plain: no seconds") << "p.csv"
                                       << "operator,kind,dtype\nq,gemm,bf16\n"
                                       << 1 << 0 << "missing column \"seconds\"";
    QTest::newRow("plain: unknown kind") << "p.csv"
                                         << "operator,kind,dtype,seconds\nq,conv,bf16,1\n"
                                         << 2 << 3 << "kind: expected gemm, attention";
    QTest::newRow("plain: negative time")
        << "p.csv"
        << "operator,kind,dtype,seconds\nq,gemm,bf16,-1\n"
        << 2 << 13 << "seconds: expected a positive number, found \"-1\"";
    QTest::newRow("plain: gemm without shape") << "p.csv"
                                               << "operator,kind,dtype,seconds\nq,gemm,bf16,1\n"
                                               << 2 << 0 << "a gemm needs m, n and k";
    QTest::newRow("plain: field count") << "p.csv"
                                        << "operator,kind,dtype,seconds\nq,gemm,bf16\n"
                                        << 2 << 0 << "expected 4 fields as the header has, found 3";
    QTest::newRow("vidur: no num_tokens") << "mlp.csv"
                                          << "time_stats.add.median,n_head,num_tokens\n0.1,32,4\n"
                                          << 1 << 0 << "missing column \"n_kv_head\"";
    QTest::newRow("vidur collective: size")
        << "ar.csv"
        << ",time_stats.all_reduce.median,num_workers,size,collective\n0,0.1,2,abc,all_reduce\n"
        << 2 << 9 << "size (bytes): expected a positive number, found \"abc\"";
    QTest::newRow("nccl: which collective")
        << "run.txt"
        << "#  Rank  0 Group 0 Pid 1 on a device 0\n#  size count time #wrong\n 8 2 1.0 0\n"
        << 3 << 0 << "which collective is this?";
    QTest::newRow("nccl: no header") << "all_reduce_perf.log"
                                     << "# nThread 1 #wrong\n"
                                     << 0 << 0 << "no column header";
    QTest::newRow("not measured") << "x.csv"
                                  << "a,b\n1,2\n"
                                  << 1 << 0 << "not a measured-runs file";
}

void TestMeasuredReaders::errors()
{
    QFETCH(QString, path);
    QFETCH(QString, text);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, message);
    const std::string bytes = text.toStdString();
    const auto read = readMeasuredRuns(bytes, path.toStdString());
    const auto error = std::find_if(read.diagnostics.begin(), read.diagnostics.end(),
        [](const Diagnostic &d) { return d.severity == Severity::Error; });
    QVERIFY2(error != read.diagnostics.end(), "no error");
    QCOMPARE(error->file, path.toStdString());
    QCOMPARE(error->line, line);
    QCOMPARE(error->column, column);
    QVERIFY2(
        error->message.find(message.toStdString()) != std::string::npos, error->message.c_str());
}

QTEST_APPLESS_MAIN(TestMeasuredReaders)
#include "tst_measured_readers.moc"
