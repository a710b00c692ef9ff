// FLOPs and bytes of PyTorch operators from recorded shapes (docs/MODEL.md §9), against counts
// made by hand in each row, and the refusals of shapes that do not fit their operator.
#include "core/io/formats/kineto_ops.h"

#include <QTest>

using namespace ridgepoint;
using namespace ridgepoint::kineto;

class TestKinetoOps : public QObject
{
    Q_OBJECT

private slots:
    void knowsElementSizes_data();
    void knowsElementSizes();
    void countsOperatorsByHand_data();
    void countsOperatorsByHand();
    void refusesWhatItCannotCount_data();
    void refusesWhatItCannotCount();
};

namespace {

// "float[4,8] Scalar -" → inputs: a type and its dims; "Scalar" and "-" (no type) have none.
// '_' stands for a space in a type name ("long_int").
std::vector<OperatorInput> inputsOf(const QString &text)
{
    std::vector<OperatorInput> out;
    for (const QString &word : text.split(' ', Qt::SkipEmptyParts)) {
        OperatorInput input;
        const qsizetype bracket = word.lastIndexOf('[');
        const QString type = bracket < 0 ? word : word.left(bracket);
        input.type = type == "-" ? std::string() : type.toStdString();
        std::replace(input.type.begin(), input.type.end(), '_', ' ');
        if (bracket >= 0) {
            const QString dims = word.mid(bracket + 1, word.size() - bracket - 2);
            for (const QString &d : dims.split(',', Qt::SkipEmptyParts))
                input.dims.push_back(d.toLongLong());
        }
        out.push_back(std::move(input));
    }
    return out;
}

} // namespace

void TestKinetoOps::knowsElementSizes_data()
{
    QTest::addColumn<QString>("type");
    QTest::addColumn<double>("bytes"); // 0: not a tensor type
    QTest::addColumn<QString>("precision"); // "": none
    QTest::newRow("float") << "float" << 4.0 << "fp32";
    QTest::newRow("half") << "c10::Half" << 2.0 << "fp16";
    QTest::newRow("bfloat16") << "c10::BFloat16" << 2.0 << "bf16";
    QTest::newRow("double") << "double" << 8.0 << "fp64";
    QTest::newRow("long int") << "long int" << 8.0 << "";
    QTest::newRow("int") << "int" << 4.0 << "";
    QTest::newRow("bool") << "bool" << 1.0 << "";
    QTest::newRow("scalar") << "Scalar" << 0.0 << "";
    QTest::newRow("tensor list") << "TensorList" << 0.0 << "";
}

void TestKinetoOps::knowsElementSizes()
{
    QFETCH(QString, type);
    QFETCH(double, bytes);
    QFETCH(QString, precision);
    const auto size = elementBytes(type.toStdString());
    QCOMPARE(size.value_or(0.0), bytes);
    const auto p = precisionOfType(type.toStdString());
    QCOMPARE(p ? QString::fromUtf8(precisionName(*p).data()) : QString(), precision);
}

void TestKinetoOps::countsOperatorsByHand_data()
{
    QTest::addColumn<QString>("op");
    QTest::addColumn<QString>("inputs");
    QTest::addColumn<double>("flops");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<QString>("precision");
    // Matmuls: 2·M·N·K (+ M·N for a bias); A, B and the bias read, C written.
    QTest::newRow("mm") << "aten::mm"
                        << "float[64,32] float[32,16]" << 2.0 * 64 * 16 * 32
                        << 4.0 * (64 * 32 + 32 * 16 + 64 * 16) << "fp32";
    QTest::newRow("addmm") << "aten::addmm"
                           << "float[16] float[4,8] float[8,16] Scalar Scalar"
                           << 2.0 * 4 * 16 * 8 + 4 * 16 << 4.0 * (16 + 32 + 128 + 64) << "fp32";
    QTest::newRow("bmm fp16") << "aten::bmm"
                              << "c10::Half[2,4,8] c10::Half[2,8,16]" << 2.0 * 2 * 4 * 16 * 8
                              << 2.0 * (64 + 256 + 128) << "fp16";
    QTest::newRow("baddbmm") << "aten::baddbmm"
                             << "float[2,4,16] float[2,4,8] float[2,8,16] Scalar Scalar"
                             << 2.0 * 2 * 4 * 16 * 8 + 2 * 4 * 16 << 4.0 * (128 + 64 + 256 + 128)
                             << "fp32";
    QTest::newRow("matmul broadcast")
        << "aten::matmul"
        << "float[3,4,8] float[8,16]" << 2.0 * 3 * 4 * 16 * 8 << 4.0 * (96 + 128 + 192) << "fp32";
    QTest::newRow("matmul vectors")
        << "aten::matmul"
        << "float[8] float[8]" << 2.0 * 8 << 4.0 * (8 + 8 + 1) << "fp32";
    QTest::newRow("linear bf16") << "aten::linear"
                                 << "c10::BFloat16[2,3,8] c10::BFloat16[16,8] c10::BFloat16[16]"
                                 << 2.0 * 6 * 16 * 8 + 6 * 16 << 2.0 * (48 + 128 + 16 + 96)
                                 << "bf16";
    // Elementwise: FLOPs per output element, inputs read, the broadcast output written.
    QTest::newRow("add broadcast")
        << "aten::add"
        << "float[4,1] float[1,5] Scalar" << 20.0 << 4.0 * (4 + 5 + 20) << "fp32";
    QTest::newRow("mul_ in place")
        << "aten::mul_"
        << "float[3,5] float[5]" << 15.0 << 4.0 * (15 + 5 + 15) << "fp32";
    QTest::newRow("relu") << "aten::relu"
                          << "float[10]" << 10.0 << 80.0 << "fp32";
    QTest::newRow("gelu fp16") << "aten::gelu"
                               << "c10::Half[10] -" << 50.0 << 40.0 << "fp16";
    QTest::newRow("sigmoid fp64") << "aten::sigmoid"
                                  << "double[10]" << 40.0 << 160.0 << "fp64";
    QTest::newRow("tanh_backward") << "aten::tanh_backward"
                                   << "float[6] float[6]" << 18.0 << 72.0 << "fp32";
    QTest::newRow("where") << "aten::where"
                           << "bool[4] float[4] float[4]" << 4.0 << 4.0 + 16 + 16 + 16 << "fp32";
    // Softmax: 5 FLOPs an element, read and written once.
    QTest::newRow("softmax") << "aten::_softmax"
                             << "float[2,10] Scalar Scalar" << 100.0 << 160.0 << "fp32";
    QTest::newRow("log_softmax") << "aten::log_softmax"
                                 << "c10::Half[5,4] Scalar -" << 100.0 << 80.0 << "fp16";
    // Layer norm: 8 FLOPs an element; x, weight, bias read; y, mean and rstd (fp32) written.
    QTest::newRow("layer_norm") << "aten::native_layer_norm"
                                << "float[4,8] - float[8] float[8] Scalar" << 8.0 * 32
                                << 4.0 * (32 + 32) + 4.0 * (4 + 4) + 4.0 * (8 + 8) << "fp32";
    QTest::newRow("layer_norm backward")
        << "aten::native_layer_norm_backward"
        << "float[4,8] float[4,8] - float[4,1] float[4,1] float[8] float[8] -" << 13.0 * 32
        << 4.0 * (32 + 32 + 4 + 4 + 8 + 8) + 4.0 * 32 + 4.0 * (8 + 8) << "fp32";
    // Copies: no FLOPs; the source read, the destination written.
    QTest::newRow("copy_ widening")
        << "aten::copy_"
        << "long_int[10] int[10] Scalar" << 0.0 << 8.0 * 10 + 4.0 * 10 << "";
    QTest::newRow("to") << "aten::to"
                        << "float[10] Scalar Scalar" << 0.0 << 80.0 << "fp32";
}

void TestKinetoOps::countsOperatorsByHand()
{
    QFETCH(QString, op);
    QFETCH(QString, inputs);
    QFETCH(double, flops);
    QFETCH(double, bytes);
    QFETCH(QString, precision);
    const auto cost = operatorCost(op.toStdString(), inputsOf(inputs));
    QVERIFY2(cost, cost ? "" : cost.error().c_str());
    QCOMPARE(cost->flops, flops);
    QCOMPARE(cost->bytes, bytes);
    QCOMPARE(
        cost->precision ? QString::fromUtf8(precisionName(*cost->precision).data()) : QString(),
        precision);
}

void TestKinetoOps::refusesWhatItCannotCount_data()
{
    QTest::addColumn<QString>("op");
    QTest::addColumn<QString>("inputs");
    QTest::addColumn<QString>("reason");
    QTest::newRow("mm shapes") << "aten::mm"
                               << "float[2,3] float[4,5]"
                               << "aten::mm: shapes [2, 3] and [4, 5] do not multiply";
    QTest::newRow("bmm batches") << "aten::bmm"
                                 << "float[2,3,4] float[3,4,5]"
                                 << "aten::bmm: shapes [2, 3, 4] and [3, 4, 5] do not multiply";
    QTest::newRow("add broadcast") << "aten::add"
                                   << "float[2,3] float[4] Scalar"
                                   << "aten::add: shapes [2, 3] and [4] do not broadcast";
    QTest::newRow("linear") << "aten::linear"
                            << "float[2,8] float[16,4]"
                            << "aten::linear: shapes [2, 8] and [16, 4] do not fit";
    QTest::newRow("no model") << "aten::cat"
                              << "TensorList Scalar"
                              << "operator aten::cat has no model yet";
    QTest::newRow("not aten") << "fbgemm::permute_sparse_features"
                              << "int[4]"
                              << "operator fbgemm::permute_sparse_features has no model yet";
    QTest::newRow("unknown type") << "aten::mm"
                                  << "c10::complex<float>[2,2] float[2,2]"
                                  << "input type \"c10::complex<float>\" has no known element";
    QTest::newRow("negative size") << "aten::relu"
                                   << "float[-3]"
                                   << "aten::relu: negative size in [-3]";
    QTest::newRow("no tensor") << "aten::relu"
                               << "Scalar"
                               << "aten::relu: no tensor input";
}

void TestKinetoOps::refusesWhatItCannotCount()
{
    QFETCH(QString, op);
    QFETCH(QString, inputs);
    QFETCH(QString, reason);
    const auto cost = operatorCost(op.toStdString(), inputsOf(inputs));
    QVERIFY(!cost);
    QVERIFY2(QString::fromStdString(cost.error()).contains(reason), cost.error().c_str());
}

QTEST_APPLESS_MAIN(TestKinetoOps)
#include "tst_kinetoops.moc"
